package dev.dockhand.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectExecResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One command run by {@code docker exec} under {@link SweepScript}'s wrapper, with a marker of its own, its stdout and
 * stderr written to two byte streams as they arrive. It can tell a command that ran from one the container refused to
 * start (its process limit full, or the container stopped): the engine then reports exit code 126 with no process,
 * and sends its "OCI runtime exec failed" message as the exec's output, which is held back and dropped, since the
 * command itself printed nothing.
 */
final class DockerExec implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DockerExec.class);
    private static final long POLL_MILLIS = 50;
    private static final byte[] REFUSED = "OCI runtime exec failed".getBytes(StandardCharsets.UTF_8);
    /** Bash's status when it cannot fork and gives up: what the wrapper exits with when it could not start the command. */
    private static final int WRAPPER_COULD_NOT_FORK = 254;

    /** How the wrapper's bash (its {@code $0} is "dockhand") reports a failed fork on stderr. */
    private static final String WRAPPER_FORK_FAILURE = "dockhand: fork: ";

    /** What {@link #exitCode} reports when the engine no longer knows the exec: its container was removed. */
    private static final int KILLED = 137;

    private final DockerClient docker;
    private final String execId;
    private final String marker;
    private final Output output;

    private DockerExec(DockerClient docker, String execId, String marker, Output output) {
        this.docker = docker;
        this.execId = execId;
        this.marker = marker;
        this.output = output;
    }

    /**
     * Creates and starts the exec.
     *
     * @throws RuntimeException docker-java's, when the engine or the container refused to create or start it
     */
    static DockerExec start(
            DockerClient docker,
            String container,
            String command,
            Path directory,
            OutputStream stdout,
            OutputStream stderr) {
        String marker = UUID.randomUUID().toString();
        String execId = docker.execCreateCmd(container)
                .withCmd(SweepScript.wrapped(command).toArray(String[]::new))
                .withEnv(List.of(SweepScript.MARKER + "=" + marker))
                .withWorkingDir(directory.toString())
                .withAttachStdin(false)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .withTty(false)
                .exec()
                .getId();
        Output output = new Output(stdout, stderr);
        docker.execStartCmd(execId).withDetach(false).withTty(false).exec(output);
        return new DockerExec(docker, execId, marker, output);
    }

    /** The value of the exec's marker variable, by which the killer finds its processes. */
    String marker() {
        return marker;
    }

    /** Waits for the command to end; returns why it must be killed, or null when it ended by itself. */
    ExecResult.Termination await(long deadline, Cancellation cancel) {
        try {
            // Our own latch: docker-java's awaitCompletion(timeout) closes the stream when it times out.
            while (!output.ended.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (cancel.isCancelled()) {
                    return ExecResult.Termination.CANCELLED;
                }
                if (System.nanoTime() > deadline) {
                    return ExecResult.Termination.TIMED_OUT;
                }
            }
            // The attach stream can end (the transport reports "stream already closed") a moment before the
            // process does; the exec's own state is the truth.
            while (isRunning()) {
                if (cancel.isCancelled()) {
                    return ExecResult.Termination.CANCELLED;
                }
                if (System.nanoTime() > deadline) {
                    return ExecResult.Termination.TIMED_OUT;
                }
                Thread.sleep(POLL_MILLIS);
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExecResult.Termination.CANCELLED;
        }
    }

    /** Whether the exec's output stream has ended (the command and every holder of its output are gone). */
    boolean streamEnded() {
        return output.ended.getCount() == 0;
    }

    /** Runs {@code action} once the output stream has ended (at once if it has), on the stream's thread. */
    void whenStreamEnds(Runnable action) {
        output.finished.thenRun(action);
    }

    /** After a kill, gives the output of the dying processes a moment to arrive. */
    void awaitOutput() {
        try {
            output.ended.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean isRunning() {
        try {
            return Boolean.TRUE.equals(docker.inspectExecCmd(execId).exec().isRunning());
        } catch (NotFoundException containerGone) {
            return false;
        }
    }

    /**
     * The command's exit code once it has ended; empty when the container refused to start it, so it never ran.
     * Passes on or drops the held-back output accordingly.
     */
    OptionalInt exitCode() {
        InspectExecResponse inspected;
        try {
            inspected = docker.inspectExecCmd(execId).exec();
        } catch (NotFoundException containerGone) {
            output.release();
            return OptionalInt.of(KILLED);
        }
        Long exit = inspected.getExitCodeLong();
        Long pid = inspected.getPidLong();
        if (exit != null && exit == 126 && pid != null && pid == 0) {
            log.debug("the container refused exec {}: {}", execId, output.held());
            return OptionalInt.empty();
        }
        if (exit != null && exit == WRAPPER_COULD_NOT_FORK && output.onlyWrapperForkFailures()) {
            // The wrapper started but the full process limit refused it the fork of the command itself: the command
            // never ran, as when the engine refuses the exec (which one happens depends on a pid freed for a moment).
            log.debug("the wrapper of exec {} could not fork the command", execId);
            return OptionalInt.empty();
        }
        output.release();
        return OptionalInt.of(exit == null ? KILLED : exit.intValue());
    }

    @Override
    public void close() {
        try {
            output.close();
        } catch (IOException e) {
            log.debug("closing an exec stream failed", e);
        }
        if (output.error != null) {
            log.debug("exec stream of {} ended with an error", execId, output.error);
        }
    }

    /**
     * Runs a short helper command in the container (no wrapper, no marker) and returns its stdout, waiting at most ten
     * seconds; the engine's refusal message when the container refused to start it.
     */
    static String output(DockerClient docker, String container, List<String> command) {
        String execId = docker.execCreateCmd(container)
                .withCmd(command.toArray(String[]::new))
                .withAttachStdout(true)
                .withAttachStderr(false)
                .exec()
                .getId();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ResultCallback.Adapter<Frame> stream = docker.execStartCmd(execId).exec(new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                out.writeBytes(frame.getPayload());
            }
        })) {
            stream.awaitCompletion(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.debug("closing a helper exec's stream failed", e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The exec's frames, to stdout or stderr; the engine's refusal, if that is the first frame, held back. */
    static final class Output extends ResultCallback.Adapter<Frame> {
        private final OutputStream stdout;
        private final OutputStream stderr;
        private final CountDownLatch ended = new CountDownLatch(1);
        private final CompletableFuture<Void> finished = new CompletableFuture<>();
        private byte[] held;
        private boolean first = true;
        /** The wrapper's own "fork: retry" lines, held back until it is known whether the command ran at all. */
        private final java.io.ByteArrayOutputStream heldForkFailures = new java.io.ByteArrayOutputStream();

        private boolean onlyForkFailures = true;
        private volatile Throwable error;

        Output(OutputStream stdout, OutputStream stderr) {
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public synchronized void onNext(Frame frame) {
            byte[] payload = frame.getPayload();
            boolean isStdout = frame.getStreamType() != StreamType.STDERR;
            if (first && isStdout && startsWithRefusal(payload)) {
                held = payload;
            } else if (onlyForkFailures && !isStdout && wrapperForkFailure(payload)) {
                heldForkFailures.writeBytes(payload);
            } else {
                release();
                write(isStdout ? stdout : stderr, payload);
            }
            first = false;
        }

        /** Whether everything the exec printed is its wrapper failing to fork (and it printed that). */
        synchronized boolean onlyWrapperForkFailures() {
            return onlyForkFailures && heldForkFailures.size() > 0;
        }

        private static boolean wrapperForkFailure(byte[] payload) {
            String text = new String(payload, StandardCharsets.UTF_8);
            return !text.isEmpty() && text.lines().allMatch(line -> line.startsWith(WRAPPER_FORK_FAILURE));
        }

        @Override
        public void onError(Throwable throwable) {
            error = throwable;
            ended.countDown();
            finished.complete(null);
            super.onError(throwable);
        }

        @Override
        public void onComplete() {
            ended.countDown();
            finished.complete(null);
            super.onComplete();
        }

        /** Passes on the held frames: the command ran, so they were its own output. */
        synchronized void release() {
            if (held != null) {
                write(stdout, held);
                held = null;
            }
            if (onlyForkFailures) {
                onlyForkFailures = false;
                if (heldForkFailures.size() > 0) {
                    write(stderr, heldForkFailures.toByteArray());
                }
            }
        }

        synchronized String held() {
            return held == null ? "" : new String(held, StandardCharsets.UTF_8).strip();
        }

        private static void write(OutputStream stream, byte[] payload) {
            try {
                stream.write(payload, 0, payload.length);
            } catch (IOException e) {
                log.warn("could not keep a command's output", e);
            }
        }

        private static boolean startsWithRefusal(byte[] payload) {
            if (payload.length < REFUSED.length) {
                return false;
            }
            for (int i = 0; i < REFUSED.length; i++) {
                if (payload[i] != REFUSED[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
