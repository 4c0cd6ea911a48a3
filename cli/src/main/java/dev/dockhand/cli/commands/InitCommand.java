package dev.dockhand.cli.commands;

import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code /init}: a turn in which the model explores the project and writes a starting {@code AGENTS.md} at its root
 * with write_file. The write is a tool call like any other, so it asks for approval as the session's mode says (a
 * {@code -p} run needs {@code --approval-mode auto-edit}, or write_file among {@code --allowed-tools}). An existing
 * file is replaced only when the user says so: the REPL asks first, {@code /init --force} does not ask, and a
 * {@code -p} run without {@code --force} is refused, as nobody could answer there.
 */
public final class InitCommand {
    /** The file written, at the workspace's root. */
    public static final String FILE = "AGENTS.md";

    /** Replaces an existing file without asking. */
    static final String FORCE = "--force";

    private static final String PROMPT =
            """
            Write a starting AGENTS.md for this project: the instructions an AI coding agent reads before it works \
            here. Explore the project first with the read-only tools (list_directory, glob, grep, read_file): the \
            README, the build files (pom.xml, build.gradle, package.json, pyproject.toml, Cargo.toml, go.mod, \
            Makefile and the like), the CI configuration, the layout of the source and test folders, and a few \
            representative source files.

            Then write AGENTS.md at the project's root with write_file. Keep it short (about 30 to 80 lines of \
            Markdown) and about this project only, with what you verified in its files, never guessed:
            - what the project is, in one or two sentences;
            - how to build it, run its tests (all of them, and a single test) and run linters or formatters, as \
            exact commands;
            - where things are: the main folders and what each holds;
            - the conventions the code follows (language version, style, naming, how tests are written) and \
            anything an agent must not do (generated files, folders to leave alone).
            Leave out what any developer knows and what a section would only guess. When you are done, say in one \
            sentence what you wrote.""";

    private static final String REPLACE =
            """


            AGENTS.md exists already and the user asked for it to be replaced: read it first, keep what is still \
            true and useful, and write the whole new file.""";

    private InitCommand() {}

    /** Whether {@code arguments} ask to replace an existing file; anything else than {@code --force} is refused. */
    public static boolean force(String arguments) {
        String given = arguments.strip();
        if (given.isEmpty()) {
            return false;
        }
        if (given.equals(FORCE)) {
            return true;
        }
        throw new DockhandException(
                ExitCodes.USAGE, "/init takes no argument but " + FORCE + " (replace AGENTS.md without asking).");
    }

    /** The prompt of the turn; {@code replacing} when AGENTS.md exists and the user chose to replace it. */
    public static String prompt(boolean replacing) {
        return replacing ? PROMPT + REPLACE : PROMPT;
    }

    /** Where the file goes in {@code workspace}. */
    public static Path file(Path workspace) {
        return workspace.resolve(FILE);
    }

    /** The file's content now, empty when there is none; compared after the turn to tell whether it was written. */
    public static Optional<String> content(Path workspace) {
        try {
            Path file = file(workspace);
            return Files.isRegularFile(file) ? Optional.of(Files.readString(file)) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            // Unreadable (or not UTF-8) now: treated as present, so that whatever is there is never replaced unasked.
            return Optional.of("\0unreadable");
        }
    }
}
