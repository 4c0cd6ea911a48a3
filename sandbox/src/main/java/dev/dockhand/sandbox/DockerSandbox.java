package dev.dockhand.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectExecResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.OutputSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands in one Docker container per session, started on the first command and reused (one {@code docker
 * exec} per command), removed on {@link #close} or JVM shutdown; a container left by a JVM that was killed is
 * removed the next time a sandbox starts. Each command runs in a child of a small bash wrapper (see {@link
 * SweepScript}), which {@code docker exec} starts as the leader of a new session, with a marker variable in its
 * environment: when the command exits the wrapper kills every process it left behind, and at a time-out or cancel a
 * second exec finds them by the marker and the session and kills them.
 */
public final class DockerSandbox implements Sandbox {
    private static final Logger log = LoggerFactory.getLogger(DockerSandbox.class);
    private static final long POLL_MILLIS = 50;
    private static final Pattern OOM_KILLS = Pattern.compile("oom_kill (\\d+)");

    private final DockerClient docker;
    private final DockerHttpClient http;
    private final ContainerSpec spec;
    private final String dockerHost;
    private String containerId;
    private long oomKills;
    private Thread removeOnShutdown;

    DockerSandbox(DockerClient docker, DockerHttpClient http, ContainerSpec spec, String dockerHost) {
        this.docker = docker;
        this.http = http;
        this.spec = spec;
        this.dockerHost = dockerHost;
    }

    /**
     * A sandbox for {@code workspace}, talking to the engine at {@code DOCKER_HOST} from {@code hostEnv} (the local
     * socket by default). Nothing is contacted until {@link #preflight} or the first command.
     */
    public static DockerSandbox connect(
            DockerSettings settings, Path workspace, List<Path> extraRoots, Map<String, String> hostEnv) {
        DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
        String dockerHost = hostEnv.get("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            builder.withDockerHost(dockerHost.strip());
        }
        DockerClientConfig config = builder.build();
        DockerHttpClient http = new ZerodepDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .connectionTimeout(Duration.ofSeconds(5))
                .build();
        ContainerSpec spec = ContainerSpec.of(settings, workspace, extraRoots, hostEnv, HostIdentity.current());
        return new DockerSandbox(
                DockerClientImpl.getInstance(config, http),
                http,
                spec,
                config.getDockerHost().toString());
    }

    @Override
    public String kind() {
        return "docker";
    }

    /**
     * Checks, before the model is called, that commands will be able to run: the engine answers and the image
     * exists. Also removes containers left by Dockhand processes that no longer run.
     */
    public void preflight() throws SandboxUnavailableException {
        try {
            docker.pingCmd().exec();
        } catch (RuntimeException e) {
            throw new SandboxUnavailableException(
                    "Docker does not answer at " + dockerHost + " (" + reason(e)
                            + "); start it (sudo scripts/docker-setup.sh), or run with --sandbox none to run commands"
                            + " unconfined.",
                    e);
        }
        int status;
        try {
            status = imageStatus(spec.image());
        } catch (RuntimeException e) {
            throw new SandboxUnavailableException(
                    "Docker could not inspect the image " + spec.image() + " (" + reason(e) + ").", e);
        }
        if (status == 404) {
            throw new SandboxUnavailableException(
                    "The sandbox image " + spec.image() + " is missing; build it with"
                            + " scripts/build-sandbox-image.sh, name another with --sandbox-image, or run with --sandbox"
                            + " none.",
                    null);
        } else if (status != 200) {
            throw new SandboxUnavailableException(
                    "Docker could not inspect the image " + spec.image() + " (HTTP status " + status + ").", null);
        }
        removeOrphans();
    }

    /**
     * The engine's HTTP status for the image's description, which is not read: docker-java's typed inspect built
     * Jackson deserializers for the whole description, about 25 ms of every start with the Docker sandbox (the
     * default), to learn what the status says. The path is the one docker-java's inspect uses.
     */
    private int imageStatus(String image) {
        try (DockerHttpClient.Response response = get("/images/" + image + "/json")) {
            return response.getStatusCode();
        }
    }

    /** A GET straight through docker-java's transport, for answers its typed commands would map into objects. */
    private DockerHttpClient.Response get(String path) {
        return http.execute(DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path(path)
                .build());
    }

    /** Removes sandbox containers of this host whose owning process has ended (killed, crashed). */
    void removeOrphans() {
        for (JsonNode container : sandboxContainers()) {
            String id = container.path("Id").asText();
            JsonNode labels = container.path("Labels");
            if (!HostIdentity.hostname()
                    .equals(labels.path(ContainerSpec.OWNER_HOST).asText(null))) {
                continue;
            }
            try {
                long pid = Long.parseLong(labels.path(ContainerSpec.OWNER_PID).asText("0"));
                long started =
                        Long.parseLong(labels.path(ContainerSpec.OWNER_STARTED).asText("0"));
                if (!HostIdentity.alive(pid, started)) {
                    log.info("removing sandbox container {} left by process {}", id, pid);
                    docker.removeContainerCmd(id).withForce(true).exec();
                }
            } catch (NumberFormatException | DockerException e) {
                log.warn("could not remove leftover container {}", id, e);
            }
        }
    }

    /**
     * Every container with the sandbox label, running or not, read as a JSON tree: docker-java's typed list read
     * them into objects whose Jackson deserializers took about 30 ms to build at every start with the Docker sandbox.
     * Finding none is only a missed clean-up, so a failure is logged, not thrown.
     */
    private List<JsonNode> sandboxContainers() {
        String filters =
                URLEncoder.encode("{\"label\":[\"" + ContainerSpec.LABEL + "=true\"]}", StandardCharsets.UTF_8);
        try (DockerHttpClient.Response response = get("/containers/json?all=true&filters=" + filters)) {
            if (response.getStatusCode() != 200) {
                log.warn("could not list sandbox containers: HTTP status {}", response.getStatusCode());
                return List.of();
            }
            List<JsonNode> containers = new ArrayList<>();
            Json.MAPPER.readTree(response.getBody()).forEach(containers::add);
            return containers;
        } catch (IOException | RuntimeException e) {
            log.warn("could not list sandbox containers", e);
            return List.of();
        }
    }

    @Override
    public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
        String container = ensureStarted();
        String marker = UUID.randomUUID().toString();
        LineSplitter.Pair lines = LineSplitter.pair(output);
        LineSplitter stdout = lines.stdout();
        LineSplitter stderr = lines.stderr();
        String execId;
        ResultCallback.Adapter<Frame> stream;
        AtomicReference<Throwable> streamError = new AtomicReference<>();
        // Our own latch: docker-java's awaitCompletion(timeout) closes the stream when it times out, so it cannot
        // be used to poll.
        CountDownLatch ended = new CountDownLatch(1);
        try {
            execId = docker.execCreateCmd(container)
                    .withCmd(SweepScript.wrapped(request.command()).toArray(String[]::new))
                    .withEnv(List.of(SweepScript.MARKER + "=" + marker))
                    .withWorkingDir(request.directory().toString())
                    .withAttachStdin(false)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false)
                    .exec()
                    .getId();
            stream = docker.execStartCmd(execId)
                    .withDetach(false)
                    .withTty(false)
                    .exec(new ResultCallback.Adapter<>() {
                        @Override
                        public void onNext(Frame frame) {
                            byte[] payload = frame.getPayload();
                            (frame.getStreamType() == com.github.dockerjava.api.model.StreamType.STDERR
                                            ? stderr
                                            : stdout)
                                    .write(payload, 0, payload.length);
                        }

                        @Override
                        public void onError(Throwable error) {
                            streamError.set(error);
                            ended.countDown();
                            super.onError(error);
                        }

                        @Override
                        public void onComplete() {
                            ended.countDown();
                            super.onComplete();
                        }
                    });
        } catch (DockerException e) {
            forgetContainerIfGone();
            throw new IOException("the sandbox container could not run the command: " + reason(e), e);
        }
        long deadline = System.nanoTime() + request.timeout().toNanos();
        ExecResult.Termination killedBy = await(ended, deadline, cancel);
        if (killedBy == null) {
            // The attach stream can end (the transport reports "stream already closed") a moment before the
            // process does; the exec's own state is the truth.
            killedBy = awaitExit(execId, deadline, cancel);
        }
        if (killedBy != null) {
            killMarked(container, marker);
            awaitQuietly(ended);
        }
        closeQuietly(stream);
        stdout.flush();
        stderr.flush();
        if (streamError.get() != null) {
            log.debug("exec stream of {} ended with an error", execId, streamError.get());
        }
        return result(execId, killedBy, container);
    }

    /** Waits for the command; returns why it must be killed, or null when it ended by itself. */
    private static ExecResult.Termination await(CountDownLatch ended, long deadline, Cancellation cancel) {
        try {
            while (!ended.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (cancel.isCancelled()) {
                    return ExecResult.Termination.CANCELLED;
                }
                if (System.nanoTime() > deadline) {
                    return ExecResult.Termination.TIMED_OUT;
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExecResult.Termination.CANCELLED;
        }
    }

    /** Polls the exec until its process has exited; returns why it must be killed, or null. */
    private ExecResult.Termination awaitExit(String execId, long deadline, Cancellation cancel) {
        while (Boolean.TRUE.equals(docker.inspectExecCmd(execId).exec().isRunning())) {
            if (cancel.isCancelled()) {
                return ExecResult.Termination.CANCELLED;
            }
            if (System.nanoTime() > deadline) {
                return ExecResult.Termination.TIMED_OUT;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExecResult.Termination.CANCELLED;
            }
        }
        return null;
    }

    private ExecResult result(String execId, ExecResult.Termination killedBy, String container) {
        InspectExecResponse inspected = docker.inspectExecCmd(execId).exec();
        Long exit = inspected.getExitCodeLong();
        int exitCode = exit == null ? 137 : exit.intValue();
        if (killedBy != null) {
            return new ExecResult(exitCode, killedBy);
        }
        if (exitCode == 137 && oomKilledSinceLastLook(container)) {
            return new ExecResult(exitCode, ExecResult.Termination.OUT_OF_MEMORY);
        }
        return ExecResult.exited(exitCode);
    }

    /**
     * Kills every process of the command (see {@link SweepScript}). If the container cannot even start the killer (its
     * process limit is full), or the killer cannot finish (a fork bomb outran it), the container itself is removed;
     * the next command starts a fresh one.
     */
    private void killMarked(String container, String marker) {
        String said;
        try {
            said = runQuietly(container, SweepScript.killer(marker).toArray(String[]::new));
        } catch (DockerException | IOException e) {
            said = e.toString();
        }
        if (!said.strip().equals(SweepScript.CLEAN)) {
            log.warn("could not kill the command's processes ({}); removing the sandbox container", said.strip());
            removeContainer();
        }
    }

    /** After a kill, gives the output of the dying processes a moment to arrive. */
    private static void awaitQuietly(CountDownLatch ended) {
        try {
            ended.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(ResultCallback.Adapter<Frame> stream) {
        try {
            stream.close();
        } catch (IOException e) {
            log.debug("closing an exec stream failed", e);
        }
    }

    /** Whether the kernel's OOM killer struck in the container since the last look. */
    private boolean oomKilledSinceLastLook(String container) {
        long now = readOomKills(container);
        boolean struck = now > oomKills;
        oomKills = now;
        return struck;
    }

    private long readOomKills(String container) {
        try {
            String counters = runQuietly(
                    container, "cat", "/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control");
            Matcher matcher = OOM_KILLS.matcher(counters);
            return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
        } catch (DockerException | IOException e) {
            return 0;
        }
    }

    /** Runs a short helper command in the container and returns its stdout. */
    private String runQuietly(String container, String... command) throws IOException {
        String execId = docker.execCreateCmd(container)
                .withCmd(command)
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
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private synchronized String ensureStarted() throws IOException {
        if (containerId != null) {
            return containerId;
        }
        try {
            String id = docker.createContainerCmd(spec.image())
                    .withCmd("sleep", "infinity")
                    .withUser(spec.user())
                    .withWorkingDir(spec.workingDir())
                    .withEnv(spec.env())
                    .withLabels(spec.labels())
                    .withHostConfig(spec.hostConfig())
                    .exec()
                    .getId();
            docker.startContainerCmd(id).exec();
            containerId = id;
        } catch (DockerException e) {
            throw new IOException("the sandbox container could not start: " + reason(e), e);
        }
        if (removeOnShutdown == null) {
            removeOnShutdown = new Thread(this::removeContainer, "dockhand-remove-sandbox");
            Runtime.getRuntime().addShutdownHook(removeOnShutdown);
        }
        oomKills = readOomKills(containerId);
        return containerId;
    }

    private synchronized void forgetContainerIfGone() {
        if (containerId == null) {
            return;
        }
        try {
            Boolean running =
                    docker.inspectContainerCmd(containerId).exec().getState().getRunning();
            if (!Boolean.TRUE.equals(running)) {
                removeContainer();
            }
        } catch (NotFoundException e) {
            containerId = null;
        }
    }

    private synchronized void removeContainer() {
        if (containerId == null) {
            return;
        }
        try {
            docker.removeContainerCmd(containerId).withForce(true).exec();
        } catch (NotFoundException alreadyGone) {
            // Nothing to remove.
        } catch (DockerException e) {
            log.warn("could not remove sandbox container {}", containerId, e);
        }
        containerId = null;
    }

    /** The container's id once the first command started it, else null; for tests and benchmarks. */
    public synchronized String containerId() {
        return containerId;
    }

    @Override
    public void close() {
        removeContainer();
        if (removeOnShutdown != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(removeOnShutdown);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to; it removes nothing twice.
            }
        }
        try {
            docker.close();
        } catch (IOException e) {
            log.debug("closing the Docker client failed", e);
        }
    }

    private static String reason(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.strip();
    }
}
