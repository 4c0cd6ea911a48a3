package dev.dockhand.cli.session;

import dev.dockhand.core.FileTrees;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.LoggerFactory;

/**
 * The folders under {@code ~/.dockhand/tmp} where sessions keep the outputs too long for the model and their
 * background commands' output. A folder is kept {@link #KEPT} after it last changed, so a session resumed within a
 * week can still read what it saved; older ones are removed when a later session ends, so the home folder does not
 * fill up with outputs nobody will read.
 */
final class SavedOutputs {
    static final Duration KEPT = Duration.ofDays(7);

    private SavedOutputs() {}

    /** Removes the folders of {@code tmp} other than {@code own} that last changed before {@code now - KEPT}. */
    static void prune(Path tmp, Path own, Instant now) {
        Instant before = now.minus(KEPT);
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(tmp)) {
            for (Path folder : folders) {
                BasicFileAttributes attributes =
                        Files.readAttributes(folder, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (attributes.isDirectory()
                        && !folder.equals(own)
                        && lastChanged(folder, attributes).isBefore(before)) {
                    FileTrees.deleteTree(folder);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Only housekeeping: the folders are tried again when the next session ends.
            LoggerFactory.getLogger(SavedOutputs.class).debug("pruning saved outputs in {} stopped", tmp, e);
        }
    }

    /** The newest change of the folder or a file directly in it or in its {@code background} folder. */
    private static Instant lastChanged(Path folder, BasicFileAttributes attributes) throws IOException {
        Instant newest = attributes.lastModifiedTime().toInstant();
        for (Path inside : new Path[] {folder, folder.resolve("background")}) {
            if (!Files.isDirectory(inside, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(inside)) {
                for (Path file : files) {
                    Instant changed = Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS)
                            .toInstant();
                    if (changed.isAfter(newest)) {
                        newest = changed;
                    }
                }
            }
        }
        return newest;
    }
}
