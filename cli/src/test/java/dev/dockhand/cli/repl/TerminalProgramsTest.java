package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.jline.utils.InfoCmp;
import org.jline.utils.OSUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The programs jline starts to learn about the terminal come from the PATH's absolute folders only. The workspace is
 * put on the PATH as the relative entry that names it from this JVM's folder, as {@code .} names the folder Dockhand
 * runs in; the fake {@code infocmp}s are hand-written shell scripts that record which one ran.
 */
class TerminalProgramsTest {
    @TempDir
    Path workspace;

    @TempDir
    Path bin;

    @TempDir
    Path notes;

    private final List<String> saved = new ArrayList<>();

    @BeforeEach
    void save() {
        saved.addAll(List.of(OSUtils.INFOCMP_COMMAND, OSUtils.STTY_COMMAND, OSUtils.TTY_COMMAND, OSUtils.TEST_COMMAND));
    }

    @AfterEach
    void restore() {
        OSUtils.INFOCMP_COMMAND = saved.get(0);
        OSUtils.STTY_COMMAND = saved.get(1);
        OSUtils.TTY_COMMAND = saved.get(2);
        OSUtils.TEST_COMMAND = saved.get(3);
    }

    /** A fake {@code name} in {@code folder} that appends {@code who} to the notes' {@code ran} and fails. */
    private void fake(Path folder, String name, String who) throws IOException {
        Path program = folder.resolve(name);
        Files.writeString(program, "#!/bin/sh\necho " + who + " >> '" + notes.resolve("ran") + "'\nexit 1\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwx------"));
    }

    /** The workspace as a relative PATH entry, seen from this JVM's folder. */
    private String workspaceEntry() {
        return Path.of("").toAbsolutePath().relativize(workspace).toString();
    }

    private String ran() throws IOException {
        Path ran = notes.resolve("ran");
        return Files.exists(ran) ? Files.readString(ran) : "";
    }

    @Test
    void eachProgramIsTheOneInAnAbsoluteFolderNeverTheWorkspacesOrNone() throws Exception {
        for (String name : List.of("infocmp", "stty", "tty", "test")) {
            fake(workspace, name, "workspace");
        }
        fake(bin, "infocmp", "bin");
        String path = String.join(File.pathSeparator, ".", workspaceEntry(), "", bin.toString());

        TerminalPrograms.pin(path);

        assertEquals(
                List.of(bin.resolve("infocmp").toString(), "/dev/null/stty", "/dev/null/tty", "/dev/null/test"),
                List.of(OSUtils.INFOCMP_COMMAND, OSUtils.STTY_COMMAND, OSUtils.TTY_COMMAND, OSUtils.TEST_COMMAND));
    }

    @Test
    void theProgramsArePinnedBeforeTheTerminalIsBuilt() throws Exception {
        fake(workspace, "infocmp", "workspace");
        List<String> seen = new ArrayList<>();

        TerminalPrograms.open(workspaceEntry(), () -> {
            seen.add(OSUtils.INFOCMP_COMMAND);
            return null;
        });

        assertEquals(List.of("/dev/null/infocmp"), seen);
    }

    @Test
    void aTerminalJlineDoesNotBundleRunsTheAbsoluteFoldersInfocmpOrFallsBackNeverTheWorkspaces() throws Exception {
        fake(workspace, "infocmp", "workspace");
        fake(bin, "infocmp", "bin");
        List<List<String>> ran = new ArrayList<>();

        for (String path : List.of(workspaceEntry() + File.pathSeparator + bin, workspaceEntry())) {
            Files.deleteIfExists(notes.resolve("ran"));
            try (Terminal terminal = TerminalPrograms.open(
                    path,
                    () -> new ExternalTerminal(
                            "test",
                            "tmux-256color",
                            new ByteArrayInputStream(new byte[0]),
                            new ByteArrayOutputStream(),
                            StandardCharsets.UTF_8))) {
                // Without an infocmp that answers, jline uses its bundled capabilities of an ANSI terminal.
                ran.add(List.of(
                        String.join(" ", ran().lines().distinct().toList()),
                        terminal.getStringCapability(InfoCmp.Capability.clear_screen)));
            }
        }

        assertEquals(List.of(List.of("bin", "\\E[H\\E[J"), List.of("", "\\E[H\\E[J")), ran);
    }
}
