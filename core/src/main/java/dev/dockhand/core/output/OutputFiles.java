package dev.dockhand.core.output;

import dev.dockhand.core.PrivateFiles;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The folder where a session keeps tool outputs too long for the model, and the names of the files in it. A name is
 * made here, never taken from the call id: ids come from whatever server the base URL points at, so an id like
 * {@code ../../x} or {@code CON} must not become a path. A file is {@code output-<n>-<hash>.txt}: a counter that keeps
 * the session's files apart, and a short hash of the call id that lets a reader match file and call. Each file is
 * created new (never opened over an existing one, nor through a link left in its place).
 *
 * <p>A failure to save is reported to the session's listener once (the first time), and remembered per call, so the
 * call's status can say that its output was cut without a copy.
 */
public final class OutputFiles {
    private static final int MAX_TRIES = 1000;

    private final Path folder;
    private final AtomicLong counter;
    private final AtomicBoolean reported;
    private final Consumer<String> onFirstFailure;
    private volatile String lost;

    /** A folder whose save failures nobody hears about but the call itself. */
    public OutputFiles(Path folder) {
        this(folder, reason -> {});
    }

    /** @param onFirstFailure told, once per session, why an output could not be saved */
    public OutputFiles(Path folder, Consumer<String> onFirstFailure) {
        this(folder, new AtomicLong(), new AtomicBoolean(), onFirstFailure);
    }

    private OutputFiles(Path folder, AtomicLong counter, AtomicBoolean reported, Consumer<String> onFirstFailure) {
        this.folder = folder;
        this.counter = counter;
        this.reported = reported;
        this.onFirstFailure = onFirstFailure;
    }

    public Path folder() {
        return folder;
    }

    /** The same folder, names and once-per-session report, with failures remembered for one call of its own. */
    public OutputFiles forCall() {
        return new OutputFiles(folder, counter, reported, onFirstFailure);
    }

    /** Why an output of this call could not be saved, when one could not. */
    public Optional<String> lost() {
        return Optional.ofNullable(lost);
    }

    /** A collector for call {@code callId}'s output; its overflow goes to a new file of this folder. */
    public TruncatedOutput newOutput(OutputLimits limits, String callId) {
        return new TruncatedOutput(limits, () -> create(callId), this::failed, TruncatedOutput.MAX_SAVED_BYTES);
    }

    /** The file name for the {@code n}th output of a session, for call {@code callId}. */
    static String name(long n, String callId) {
        return "output-" + n + "-" + hash(callId) + ".txt";
    }

    private TruncatedOutput.Spill create(String callId) throws IOException {
        PrivateFiles.createFolders(folder);
        for (int tries = 0; tries < MAX_TRIES; tries++) {
            Path file = folder.resolve(name(counter.incrementAndGet(), callId));
            try {
                // CREATE_NEW: an earlier session's file (a resumed session counts from 1 again) or a link planted
                // under the name is never written through. Owner-only: the output is whatever the tool read.
                BufferedWriter writer = new BufferedWriter(java.nio.channels.Channels.newWriter(
                        PrivateFiles.create(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)),
                        StandardCharsets.UTF_8));
                return new TruncatedOutput.Spill(file, writer);
            } catch (FileAlreadyExistsException taken) {
                // The next number.
            }
        }
        throw new IOException("no free file name in " + folder + " after " + MAX_TRIES + " tries");
    }

    private void failed(String reason) {
        lost = reason;
        if (reported.compareAndSet(false, true)) {
            onFirstFailure.accept(reason);
        }
    }

    /** Eight bytes of SHA-256, in hex: only to match a file with its call by eye, never to find it. */
    private static String hash(String callId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(callId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** Why writing failed, in a few words a user and a model can act on. */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied on " + denied.getFile();
        }
        if (e instanceof FileSystemException system && system.getReason() != null) {
            return system.getReason().strip() + (system.getFile() == null ? "" : " on " + system.getFile());
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
