package dev.dockhand.tools.mcp;

import dev.dockhand.core.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The folder an MCP server on this machine starts in, which decides what a launcher loads: {@code npx NAME} runs
 * {@code ./node_modules/NAME} when the folder has it, {@code python3 -m NAME} imports {@code ./NAME}. A trusted
 * project's server starts in the workspace (its {@code cwd} resolved against it); a server of the user's own settings
 * starts in every folder, so never in the workspace, whose files a cloned repository chooses: in its absolute {@code
 * cwd}, or without one in a private empty folder made for it (0700, as the ssh bridge's socket folder), removed by
 * {@link #close} (see {@link McpServerSpec.Origin}).
 */
final class HostServerFolder implements AutoCloseable {
    private final Path path;
    /** Whether the folder was made for the server, and so is removed with it. */
    private final boolean made;

    private HostServerFolder(Path path, boolean made) {
        this.path = path;
        this.made = made;
    }

    /**
     * The folder for {@code spec}'s server; {@code workspace} counts only for a project's. Throws {@link
     * IllegalStateException} with the reason when there is none: a relative {@code cwd} of the user's settings, or a
     * private folder that could not be made.
     */
    static HostServerFolder of(McpServerSpec spec, Path workspace) {
        Optional<String> cwd = spec.cwd();
        return switch (spec.origin()) {
            case PROJECT -> new HostServerFolder(cwd.map(workspace::resolve).orElse(workspace), false);
            case USER -> cwd.isPresent() ? absolute(cwd.get()) : made();
        };
    }

    private static HostServerFolder absolute(String cwd) {
        Path path = Path.of(cwd);
        if (!path.isAbsolute()) {
            throw new IllegalStateException("its cwd '" + cwd + "' is relative, and a server of your own settings"
                    + " starts in every folder, so it is not taken as relative to this one: give an absolute path"
                    + " (\"${HOME}/" + cwd + "\" for a folder in your home)");
        }
        return new HostServerFolder(path, false);
    }

    private static HostServerFolder made() {
        try {
            Path path = Files.createTempDirectory(
                    "dockhand-mcp-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            // Left behind only if the JVM ends without close (killed), and then only when the server left it empty.
            path.toFile().deleteOnExit();
            return new HostServerFolder(path, true);
        } catch (IOException e) {
            throw new IllegalStateException("its own empty folder to start in could not be made: " + e.getMessage());
        }
    }

    Path path() {
        return path;
    }

    /** Whether the folder was made for the server, so that {@link #close} removes it. */
    boolean madeForServer() {
        return made;
    }

    /**
     * Removes the folder made for the server, with whatever it wrote there (links removed, never followed); call it
     * once the server's processes are gone. One that cannot be removed (a process still writing) is left in the
     * temporary folder, where nothing reads it.
     */
    @Override
    public void close() {
        if (!made) {
            return;
        }
        try {
            FileTrees.deleteTree(path);
        } catch (IOException e) {
            // Best effort: the folder is private, empty of anything Dockhand reads, and under the temporary folder.
        }
    }
}
