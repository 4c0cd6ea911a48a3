package dev.dockhand.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.UUID;

/**
 * Replaces a file's content so that a crash at any moment leaves either the old file or the new one, never half of
 * one: the text goes to a temporary file beside it, is forced to disk, and is moved over the original in one step.
 */
final class AtomicFiles {
    private AtomicFiles() {}

    static void write(Path file, String content) throws IOException {
        Path target = Files.exists(file) ? file.toRealPath() : file;
        Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temp = parent.resolve("." + target.getFileName() + ".dockhand-" + UUID.randomUUID() + ".tmp");
        try {
            try (FileChannel channel =
                    FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            keepPermissions(target, temp);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** An executable script stays executable after an edit. */
    private static void keepPermissions(Path original, Path replacement) throws IOException {
        if (!Files.exists(original)) {
            return;
        }
        PosixFileAttributeView view = Files.getFileAttributeView(original, PosixFileAttributeView.class);
        if (view != null) {
            Set<PosixFilePermission> permissions = view.readAttributes().permissions();
            Files.setPosixFilePermissions(replacement, permissions);
        }
    }
}
