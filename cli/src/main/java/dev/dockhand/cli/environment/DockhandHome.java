package dev.dockhand.cli.environment;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses Dockhand's folder: {@code DOCKHAND_HOME}; else {@code $HOME/.dockhand} when HOME is an absolute path; else
 * the JVM's {@code user.home} when it is real; else a private temporary folder. CI containers run as a uid with no
 * passwd entry, where the JVM sets {@code user.home} to {@code ?}: taken as it was, that put sessions and tool outputs
 * in {@code ./?/.dockhand}, inside the repository a job may commit. A home inside the workspace is refused for the same
 * reason, and its settings are not read either: they would be the repository's own file posing as the user's.
 *
 * <p>Settings and data may part: a read-only home still gives its settings, while sessions, outputs and logs go to a
 * temporary folder for the run. Folders Dockhand creates are owner-only, since transcripts hold whatever tools read.
 */
public final class DockhandHome {
    private DockhandHome() {}

    /** Where settings are read from, where everything else is written, and what to tell the user once. */
    record Choice(Path settings, Path data, Optional<String> notice) {}

    /** Makes the temporary folder used when no home can be used; a parameter so tests see where it went. */
    @FunctionalInterface
    interface TemporaryFolders {
        Path create() throws IOException;
    }

    static Choice choose(
            Map<String, String> variables,
            String explicit,
            String userHome,
            Path workingDirectory,
            TemporaryFolders temporary) {
        if (explicit != null && !explicit.isBlank()) {
            // The user's own choice, even inside the workspace (the benchmarks put it there on purpose).
            Path home = workingDirectory.resolve(explicit.strip()).normalize();
            return writable(home, home, Optional.empty(), temporary);
        }
        String homeVariable = variables.get("HOME");
        Path base = null;
        if (homeVariable != null
                && !homeVariable.isBlank()
                && Path.of(homeVariable).isAbsolute()) {
            base = Path.of(homeVariable);
        } else if (userHome != null && !userHome.isBlank() && Path.of(userHome).isAbsolute()) {
            base = Path.of(userHome);
        }
        if (base == null) {
            return temporary(
                    null,
                    temporary,
                    "there is no home folder (HOME is not an absolute path and the user has no passwd entry)");
        }
        Path home = base.resolve(".dockhand").normalize();
        if (inside(home, workingDirectory)) {
            // Started in the home folder itself, its .dockhand is also the project's: reading it as the user's own
            // would let a repository checked out there set what only the user may. From a folder above the home
            // (a container's /), the home's settings are still the user's own and are read.
            boolean same = realOrSelf(base.toAbsolutePath().normalize())
                    .equals(realOrSelf(workingDirectory.toAbsolutePath().normalize()));
            return temporary(
                    same ? null : home,
                    temporary,
                    "the home folder " + base + " is inside the workspace"
                            + (same ? ", so its settings are not read as yours" : ""));
        }
        return writable(home, home, Optional.empty(), temporary);
    }

    private static Choice writable(Path settings, Path data, Optional<String> notice, TemporaryFolders temporary) {
        try {
            if (!Files.isDirectory(data)) {
                createPrivate(data);
            }
            Path probe = Files.createTempFile(data, ".probe", "");
            Files.delete(probe);
            return new Choice(settings, data, notice);
        } catch (IOException | RuntimeException e) {
            return temporary(settings, temporary, data + " cannot be written (" + e.getMessage() + ")");
        }
    }

    private static Choice temporary(Path settings, TemporaryFolders temporary, String why) {
        Path folder;
        try {
            folder = temporary.create();
        } catch (IOException e) {
            throw new DockhandException(
                    ExitCodes.CONFIGURATION,
                    why + ", and no temporary folder can be made (" + e.getMessage()
                            + "); set DOCKHAND_HOME to a folder Dockhand may write.",
                    e);
        }
        return new Choice(
                settings == null ? folder : settings,
                folder,
                Optional.of(why + "; this run keeps its sessions and outputs in " + folder
                        + " (set DOCKHAND_HOME to choose a folder)."));
    }

    /** A private temporary folder, owner-only. */
    static Path privateTemporaryFolder() throws IOException {
        if (posix()) {
            return Files.createTempDirectory(
                    "dockhand-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createTempDirectory("dockhand-");
    }

    /** Creates the folder and any missing parents; the folder itself is owner-only. */
    static void createPrivate(Path folder) throws IOException {
        dev.dockhand.core.PrivateFiles.createFolders(folder);
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static boolean inside(Path home, Path workingDirectory) {
        Path real = realOrSelf(workingDirectory.toAbsolutePath().normalize());
        Path candidate = realOrSelf(home.toAbsolutePath().normalize());
        return candidate.startsWith(real);
    }

    /** The real path of the nearest existing ancestor, with the rest appended, so links cannot hide a location. */
    private static Path realOrSelf(Path path) {
        Path existing = path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return path;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(path));
        } catch (IOException e) {
            return path;
        }
    }
}
