package dev.dockhand.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectExecResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A program in the sandbox container with its standard streams attached ({@code docker exec -i}), seen as a {@link
 * Process}: what is written to {@link #getOutputStream} reaches its stdin, and its stdout and stderr are read from
 * {@link #getInputStream} and {@link #getErrorStream}. It runs under {@link SweepScript}'s wrapper with a marker of its
 * own, so {@link #destroy} kills every process it started inside the container, and the wrapper kills what it left
 * behind when it exits by itself. Its processes live in the container, not on this machine: it has no pid here and no
 * {@link #descendants}. Closing its stdin does not end the program's input: docker-java's transports cannot half-close
 * the exec's connection (docker-java issues 471, 1684), so what was written arrives and then the input stays open; a
 * program that must stop is destroyed.
 */
final class DockerAttachedProcess extends Process {
    private static final Logger log = LoggerFactory.getLogger(DockerAttachedProcess.class);
    private static final long POLL_MILLIS = 50;
    /** The exit code reported when the engine no longer knows the exec: its container was removed. */
    private static final int KILLED = 137;

    private static final byte[] REFUSED = "OCI runtime exec failed".getBytes(StandardCharsets.UTF_8);

    private final DockerClient docker;
    private final SandboxContainer container;
    private final String containerId;
    private final String execId;
    private final String marker;
    private final BytePipe stdin = new BytePipe();
    private final BytePipe stdout = new BytePipe();
    private final BytePipe stderr = new BytePipe();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Frames frames = new Frames();
    private volatile Integer exitCode;
    private volatile boolean destroyed;

    private DockerAttachedProcess(
            DockerClient docker, SandboxContainer container, String containerId, String execId, String marker) {
        this.docker = docker;
        this.container = container;
        this.containerId = containerId;
        this.execId = execId;
        this.marker = marker;
    }

    /**
     * Starts {@code command} (a program and its arguments) in the container, in {@code directory} (a path in the
     * container), with {@code environment} added to the container's.
     *
     * @throws IOException when the container could not be started or refused to create or start the exec
     */
    static DockerAttachedProcess start(
            DockerClient docker,
            SandboxContainer container,
            List<String> command,
            Map<String, String> environment,
            Path directory)
            throws IOException {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no program to start");
        }
        String id = container.ensureStarted();
        String marker = UUID.randomUUID().toString();
        List<String> env = new ArrayList<>();
        environment.forEach((key, value) -> {
            // The marker is how its processes are found and killed: the program's own settings cannot move it.
            if (!key.equals(SweepScript.MARKER)) {
                env.add(key + "=" + value);
            }
        });
        env.add(SweepScript.MARKER + "=" + marker);
        DockerAttachedProcess process;
        try {
            String execId = docker.execCreateCmd(id)
                    .withCmd(SweepScript.wrapped(shellLine(command)).toArray(String[]::new))
                    .withEnv(env)
                    .withWorkingDir(directory.toString())
                    .withAttachStdin(true)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false)
                    .exec()
                    .getId();
            process = new DockerAttachedProcess(docker, container, id, execId, marker);
            docker.execStartCmd(execId)
                    .withDetach(false)
                    .withTty(false)
                    .withStdIn(process.stdin.source())
                    .exec(process.frames);
        } catch (RuntimeException e) {
            throw new IOException("the sandbox container did not start it: " + DockerSandbox.reason(e), e);
        }
        return process;
    }

    /**
     * {@code exec} with each word single-quoted: the wrapper runs a shell line, and this one runs the program with
     * exactly these arguments, none of them read by the shell.
     */
    static String shellLine(List<String> command) {
        return command.stream()
                .map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" ", "exec ", ""));
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin.sink();
    }

    @Override
    public InputStream getInputStream() {
        return stdout.source();
    }

    @Override
    public InputStream getErrorStream() {
        return stderr.source();
    }

    @Override
    public int waitFor() throws InterruptedException {
        ended.await();
        while (true) {
            Integer code = exitCodeIfEnded();
            if (code != null) {
                return code;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (!ended.await(timeout, unit)) {
            return false;
        }
        while (true) {
            if (exitCodeIfEnded() != null) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    @Override
    public int exitValue() {
        Integer code = exitCodeIfEnded();
        if (code == null) {
            throw new IllegalThreadStateException("the program is still running in the sandbox");
        }
        return code;
    }

    @Override
    public boolean isAlive() {
        return exitCodeIfEnded() == null;
    }

    /**
     * The exit code once the program has ended, else null. While its output stream is open it runs, and the engine is
     * not asked; once the stream has ended the exec's own state is the truth (the stream can end a moment earlier).
     */
    private Integer exitCodeIfEnded() {
        Integer known = exitCode;
        if (known != null || ended.getCount() > 0) {
            return known;
        }
        InspectExecResponse inspected;
        try {
            inspected = docker.inspectExecCmd(execId).exec();
        } catch (NotFoundException containerGone) {
            exitCode = KILLED;
            return exitCode;
        } catch (RuntimeException e) {
            log.debug("could not inspect exec {}", execId, e);
            return null;
        }
        if (Boolean.TRUE.equals(inspected.isRunning())) {
            return null;
        }
        Long exit = inspected.getExitCodeLong();
        exitCode = exit == null ? KILLED : exit.intValue();
        return exitCode;
    }

    /**
     * Kills every process the program started inside the container, then lets its output end. When the killer cannot
     * finish, the container itself is removed (see {@link SandboxContainer#killMarked}), which ends them too.
     */
    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        container.killMarked(containerId, marker);
        stdin.closeWriter();
        try {
            if (!ended.await(2, TimeUnit.SECONDS)) {
                log.debug("the output of exec {} did not end after its processes were killed", execId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            frames.close();
        } catch (IOException e) {
            log.debug("closing the stream of exec {} failed", execId, e);
        }
    }

    @Override
    public Process destroyForcibly() {
        destroy();
        return this;
    }

    @Override
    public boolean supportsNormalTermination() {
        return false;
    }

    /** None on this machine: the program's processes are in the container, and {@link #destroy} ends them all. */
    @Override
    public Stream<ProcessHandle> children() {
        return Stream.empty();
    }

    /** None on this machine: the program's processes are in the container, and {@link #destroy} ends them all. */
    @Override
    public Stream<ProcessHandle> descendants() {
        return Stream.empty();
    }

    @Override
    public String toString() {
        return "sandboxed process " + execId;
    }

    /** The exec's frames, to the stdout and stderr pipes; the end of the stream ends both, and stdin with them. */
    private final class Frames extends ResultCallback.Adapter<Frame> {
        private boolean first = true;

        @Override
        public void onNext(Frame frame) {
            byte[] payload = frame.getPayload();
            // The engine's refusal arrives as output: it goes with the errors, not to a client reading messages.
            boolean refusal = first && startsWith(payload, REFUSED);
            first = false;
            OutputStream target = frame.getStreamType() == StreamType.STDERR || refusal ? stderr.sink() : stdout.sink();
            try {
                target.write(payload);
            } catch (IOException e) {
                // The reader has closed its end: nobody wants the rest.
                log.debug("dropped output of exec {}: {}", execId, e.getMessage());
            }
        }

        @Override
        public void onError(Throwable throwable) {
            log.debug("the stream of exec {} ended with an error", execId, throwable);
            finish();
            super.onError(throwable);
        }

        @Override
        public void onComplete() {
            finish();
            super.onComplete();
        }

        private void finish() {
            stdout.closeWriter();
            stderr.closeWriter();
            // docker-java's copying thread waits on stdin; its end lets that thread go.
            stdin.closeWriter();
            ended.countDown();
        }
    }

    private static boolean startsWith(byte[] payload, byte[] prefix) {
        if (payload.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (payload[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
