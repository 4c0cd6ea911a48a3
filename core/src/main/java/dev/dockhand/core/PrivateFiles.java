package dev.dockhand.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and folders only their owner may read: what Dockhand keeps under its folder (transcripts, full tool outputs,
 * background commands' output) holds whatever the tools read, and a shared machine's other users have no business
 * with it. Folders are 0700 and files 0600 where the file system has POSIX permissions.
 */
public final class PrivateFiles {
    private static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private PrivateFiles() {}

    /** Creates {@code folder} and any missing parents, each owner-only; existing ones are left as they are. */
    public static void createFolders(Path folder) throws IOException {
        if (posix(folder)) {
            Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(FOLDER));
        } else {
            Files.createDirectories(folder);
        }
    }

    /** Opens a new file, owner-only from its first byte, with {@code options} (which should hold CREATE_NEW). */
    public static java.nio.channels.SeekableByteChannel create(Path file, Set<? extends OpenOption> options)
            throws IOException {
        FileAttribute<?>[] attributes = posix(file)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
                : new FileAttribute<?>[0];
        return Files.newByteChannel(file, options, attributes);
    }

    /** Creates an empty owner-only file, or empties an existing one and makes it owner-only. */
    public static void createEmpty(Path file) throws IOException {
        if (Files.exists(file)) {
            Files.write(file, new byte[0]);
            if (posix(file)) {
                Files.setPosixFilePermissions(file, FILE);
            }
        } else if (posix(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE));
        } else {
            Files.createFile(file);
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
