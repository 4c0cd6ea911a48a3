package dev.dockhand.core;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the programs Dockhand itself starts on this machine ({@code bash}, {@code setsid}, {@code kill}, {@code rg},
 * {@code ssh}, an MCP server's command) on the PATH, in its absolute folders only. An empty entry or a relative one
 * ({@code .}, {@code node_modules/.bin}) names a folder of whatever directory the program starts in, which is the
 * workspace: a cloned repository could ship an {@code rg} or a {@code kill} there and have it run on the host the
 * first time the model searches or a command is stopped. A shell would run it; Dockhand does not (Go's
 * {@code exec.LookPath} refuses such results too).
 */
public final class HostPrograms {
    private HostPrograms() {}

    /** {@code name} in the absolute folders of {@code path} (a PATH value, null for none), as an absolute path. */
    public static Optional<Path> find(String name, String path) {
        if (path == null || name.isEmpty() || name.contains("/")) {
            return Optional.empty();
        }
        for (String folder : path.split(File.pathSeparator)) {
            Path candidate;
            try {
                Path directory = Path.of(folder);
                if (!directory.isAbsolute()) {
                    continue;
                }
                candidate = directory.resolve(name);
            } catch (InvalidPathException e) {
                continue;
            }
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** {@code name} on this process's PATH. */
    public static Optional<Path> find(String name) {
        return find(name, System.getenv("PATH"));
    }

    /** {@code name} on this process's PATH, as the string to start it by; fails when no absolute folder holds it. */
    public static String require(String name) throws IOException {
        return find(name)
                .map(Path::toString)
                .orElseThrow(() -> new IOException(
                        name + " was not found in the absolute folders of the PATH (relative ones are not searched)"));
    }
}
