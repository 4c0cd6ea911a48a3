package dev.dockhand.core.tool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a small file of the workspace (a git pointer or config file) that a command in the sandbox may be swapping as
 * it is read: at most a given number of bytes, and never waiting on a named pipe. A file is checked to be a regular
 * one first, but a command can put a pipe in its place between the check and the open, and opening a pipe waits for a
 * writer: the open runs on a thread of its own, is given up after {@link #OPEN_WAIT_SECONDS}, and the pipe, still
 * there, is opened for writing once so that the waiting open returns and the thread ends.
 */
final class SmallFile {
    static final long OPEN_WAIT_SECONDS = 2;

    private static final ExecutorService READERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-small-file");
        thread.setDaemon(true);
        return thread;
    });

    private SmallFile() {}

    /**
     * The first {@code maxBytes + 1} bytes at most of {@code file} when it is a regular file ({@code options} say
     * whether a link to one counts), so a caller sees that a file is over its limit without reading the rest; empty
     * when it is none, cannot be read, or did not open in time.
     */
    static Optional<byte[]> read(Path file, int maxBytes, LinkOption... options) {
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class, options).isRegularFile()) {
                return Optional.empty();
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return readChecked(file, maxBytes, options);
    }

    /** {@link #read} once the file was seen to be a regular one: what a pipe put in its place meanwhile meets. */
    static Optional<byte[]> readChecked(Path file, int maxBytes, LinkOption... options) {
        Future<byte[]> reading = READERS.submit(() -> {
            try (InputStream in = Files.newInputStream(file, options)) {
                return in.readNBytes(maxBytes + 1);
            }
        });
        try {
            return Optional.of(reading.get(OPEN_WAIT_SECONDS, TimeUnit.SECONDS));
        } catch (TimeoutException e) {
            reading.cancel(true);
            release(file);
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reading.cancel(true);
            release(file);
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }

    /**
     * Lets an open still waiting on a pipe at {@code file} return, by opening it for writing once and closing it; on
     * a thread of its own too, since that open waits in turn if nobody reads the pipe any more.
     */
    private static void release(Path file) {
        READERS.execute(() -> {
            try {
                BasicFileAttributes attributes =
                        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (attributes.isOther()) {
                    FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)
                            .close();
                }
            } catch (IOException | RuntimeException e) {
                // Gone or swapped again: the waiting thread stays until the pipe is opened or removed.
            }
        });
    }
}
