package dev.dockhand.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands in one Docker container per session, started on the first command, or ahead of it ({@link
 * #startAhead}), and reused (one {@code docker exec} per command), removed on {@link #close} or JVM shutdown; a container left by a JVM that was killed is
 * removed the next time a sandbox starts. Each command runs in a child of a small bash wrapper (see {@link
 * SweepScript}), which {@code docker exec} starts as the leader of a new session, with a marker variable in its
 * environment: when the command exits the wrapper kills every process it left behind, and at a time-out or cancel a
 * second exec finds them by the marker and the session and kills them. A container that stops answering (it refuses
 * to start a command, or its process limit is so full that a command's processes cannot be killed) is replaced by a
 * fresh one on the same mounts, and the result of that call says so; a command the old one refused runs again in the
 * new one. The workspace reaches the container by a {@link DockerWorkspace}: mounted from a local engine, copied in
 * and back around each command for a remote one.
 */
public final class DockerSandbox implements Sandbox {
    private static final Logger log = LoggerFactory.getLogger(DockerSandbox.class);

    /** Said in the result of the call during which the container was replaced. */
    static final String REPLACED = "The sandbox container stopped answering and was replaced with a fresh one;"
            + " processes and files outside the workspace were lost.";
    /** The exit code reported for a command cancelled before it could run. */
    private static final int KILLED = 137;
    /** How long the warm-up command ({@link #warmUp}) is waited for; {@code true} takes milliseconds. */
    private static final Duration WARM_UP_LIMIT = Duration.ofSeconds(10);
    /**
     * How long the end of a session waits for each of its two steps (copying back what changed in the container since
     * the last command, then removing the container) before it pings the engine; it goes on waiting, a limit at a time,
     * while the engine answers its pings. An engine that does not is left as it is, with a warning naming the
     * container.
     */
    static final Duration CLOSE_LIMIT = Duration.ofSeconds(15);

    private final DockerClient docker;
    private final DockerHttpClient http;
    private final ContainerSpec spec;
    private final String dockerHost;
    private final SandboxContainer container;
    private final ProtectedMounts protectedMounts;
    private final DockerWorkspace workspace;
    /** Why the settings of the workspace transport cannot be used, said at {@link #preflight}; else null. */
    private final String transportProblem;
    /** What carries docker-java's connections to an engine at {@code ssh://}; else null. */
    private final SshBridge ssh;

    private final BackgroundJobs jobs = new BackgroundJobs();
    /** The programs started attached (MCP servers), which run in the container between their calls. */
    private final List<Process> attached = new CopyOnWriteArrayList<>();

    private final ProtectedSweeper sweeper;
    private volatile Duration closeLimit = CLOSE_LIMIT;
    /** Takes the one-line warning of a close that gave up on the engine; the cli prints it. */
    private volatile Consumer<String> warnings = warning -> log.warn(warning);

    DockerSandbox(
            DockerClient docker,
            DockerHttpClient http,
            ContainerSpec spec,
            String dockerHost,
            ProtectedMounts protectedMounts,
            DockerWorkspace workspace,
            String transportProblem,
            SshBridge ssh) {
        this.docker = docker;
        this.http = http;
        this.spec = spec;
        this.dockerHost = dockerHost;
        this.protectedMounts = protectedMounts;
        this.workspace = workspace;
        this.transportProblem = transportProblem;
        this.ssh = ssh;
        this.container = new SandboxContainer(docker, spec, protectedMounts, workspace);
        this.sweeper = new ProtectedSweeper(container::sweep, this::backgroundRuns, ProtectedSweeper.PERIOD);
    }

    /** Whether a background command or an attached program still runs in the container. */
    private boolean backgroundRuns() {
        attached.removeIf(process -> !process.isAlive());
        return !attached.isEmpty() || jobs.anyRunning();
    }

    /**
     * A sandbox for {@code workspace}, talking to the engine at {@code DOCKER_HOST} from {@code hostEnv} (the local
     * socket by default; TLS as {@code DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH} say), with the workspace
     * transport {@link DockerWorkspace#choose} picks. Nothing is contacted until {@link #preflight} or the first
     * command.
     */
    public static DockerSandbox connect(
            DockerSettings settings, Path workspace, List<Path> extraRoots, Map<String, String> hostEnv) {
        return connect(settings, workspace, extraRoots, hostEnv, List::of);
    }

    /**
     * Like {@link #connect(DockerSettings, Path, List, Map)}, with the protected paths of the workspace's roots kept
     * out of the container's reach (see {@link ProtectedMounts}); {@code protectedLayouts} is asked when the first
     * container starts.
     */
    public static DockerSandbox connect(
            DockerSettings settings,
            Path workspace,
            List<Path> extraRoots,
            Map<String, String> hostEnv,
            Supplier<List<ProtectedLayout>> protectedLayouts) {
        DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
        String dockerHost = hostEnv.get("DOCKER_HOST");
        String problem = null;
        SshBridge ssh = null;
        if (dockerHost != null && dockerHost.strip().regionMatches(true, 0, "ssh://", 0, 6)) {
            // docker-java has no SSH transport: it talks to a local socket whose connections each run ssh.
            try {
                ssh = SshBridge.open(dockerHost.strip(), hostEnv, System.console() != null);
                builder.withDockerHost(ssh.socket().toString());
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
                builder.withDockerHost("unix:///var/run/docker.sock");
            }
            builder.withDockerTlsVerify(false);
        } else if (dockerHost != null && !dockerHost.isBlank()) {
            builder.withDockerHost(dockerHost.strip());
        }
        String tlsVerify = hostEnv.get("DOCKER_TLS_VERIFY");
        if (ssh == null && tlsVerify != null && !tlsVerify.isBlank()) {
            builder.withDockerTlsVerify(tlsVerify.strip());
        }
        String certPath = hostEnv.get("DOCKER_CERT_PATH");
        if (certPath != null && !certPath.isBlank()) {
            builder.withDockerCertPath(certPath.strip());
        }
        DockerClientConfig config = builder.build();
        DockerHttpClient http = new ZerodepDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(ssh == null ? config.getSSLConfig() : null)
                .connectionTimeout(Duration.ofSeconds(5))
                .build();
        ContainerSpec spec = ContainerSpec.of(settings, workspace, extraRoots, hostEnv, HostIdentity.current());
        ProtectedMounts protectedMounts = new ProtectedMounts(protectedLayouts);
        DockerWorkspace transport = new MountedWorkspace(spec, protectedMounts);
        try {
            // An engine reached over ssh cannot see this disk, though docker-java's address is a local socket.
            URI engine = ssh != null ? URI.create("ssh:/") : config.getDockerHost();
            if (problem == null && DockerWorkspace.choose(engine, hostEnv) == WorkspaceTransport.SYNC) {
                transport = new SyncedWorkspace(spec, SyncLimits.from(hostEnv), protectedLayouts);
            }
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        return new DockerSandbox(
                DockerClientImpl.getInstance(config, http),
                http,
                spec,
                ssh != null ? dockerHost.strip() : config.getDockerHost().toString(),
                protectedMounts,
                transport,
                problem,
                ssh);
    }

    @Override
    public String kind() {
        return "docker";
    }

    @Override
    public WorkspaceTransport workspaceTransport() {
        return workspace.transport();
    }

    /**
     * Checks, before the model is called, that commands will be able to run: the engine answers and the image
     * exists. Also removes containers left by Dockhand processes that no longer run.
     */
    public void preflight() throws SandboxUnavailableException {
        if (transportProblem != null) {
            throw new SandboxUnavailableException(transportProblem, null);
        }
        try {
            if (ssh != null) {
                // Bounded, and said in ssh's own words: an ssh that cannot connect fails or waits, never answers.
                ssh.check(() -> docker.pingCmd().exec());
            } else {
                docker.pingCmd().exec();
            }
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
        container.removeOrphans(sandboxContainers());
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

    /**
     * Starts the container now, in the background, rather than at the first command: called when a session opens,
     * after {@link #preflight}, so that the container starts while the model thinks. A failure is the first command's
     * error, as it would have been; {@link #close} while it starts leaves no container. Once it runs, one {@code true}
     * runs in it as a command does ({@link #warmUp}).
     *
     * @return done when the start and that command are over, whatever their outcome (for tests and benchmarks)
     */
    public CompletableFuture<Void> startAhead() {
        return container.startAhead(this::warmUp);
    }

    /**
     * Runs {@code true} in the fresh container the way a command runs (the sweep's wrapper with its marker, the
     * attached output, the exec's inspection), while the model still thinks: the first command of a session otherwise
     * paid alone for this path's first use, above all docker-java's building of the Jackson deserializers of an exec's
     * inspection (40–70 ms on a busy 2-core machine). Nothing of it is kept or shown: if it fails (the container died,
     * the sandbox was closed), the first command meets the failure itself and reports it as it would have.
     */
    private void warmUp(String id) {
        try (DockerExec exec = DockerExec.start(
                docker,
                id,
                "true",
                Path.of(spec.workingDir()),
                OutputStream.nullOutputStream(),
                OutputStream.nullOutputStream())) {
            exec.await(System.nanoTime() + WARM_UP_LIMIT.toNanos(), new Cancellation());
            exec.exitCode();
        } catch (RuntimeException e) {
            log.debug("the warm-up command in the sandbox container failed", e);
        }
    }

    @Override
    public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
        ReadOnlyWrites refused = new ReadOnlyWrites(output);
        ExecResult result = run(request, refused, cancel);
        // Only mounts refuse writes to protected paths; the sync transport says so itself (see SyncedRoot).
        if (refused.seen()
                && workspace.transport() == WorkspaceTransport.MOUNT
                && !protectedMounts.entries().isEmpty()) {
            result = result.withNotice(protectedNotice(protectedMounts.entries()));
        }
        for (String notice : sweeper.sweep("the command")) {
            result = result.withNotice(notice);
        }
        return result;
    }

    /**
     * What the model reads when a write failed on a read-only or pinned path: which paths are protected, why, and
     * that the user (not another way round) decides.
     */
    static String protectedNotice(List<String> entries) {
        List<String> shown = entries.size() > 12 ? entries.subList(0, 12) : entries;
        return "A write failed on a protected path: in the sandbox " + String.join(", ", shown)
                + (shown.size() < entries.size() ? " and " + (entries.size() - shown.size()) + " more" : "")
                + " are read-only, since what is written there (git hooks and config, editor and Dockhand settings)"
                + " runs later on the user's machine. Do not work around it: tell the user, who can allow a path with"
                + " --allow-protected-path PATH or protectedPaths.allow in their own settings.";
    }

    /** Sees each output line on its way to {@code output} and notes an error of a read-only or pinned path. */
    private static final class ReadOnlyWrites implements OutputSink {
        private final OutputSink output;
        private volatile boolean seen;

        ReadOnlyWrites(OutputSink output) {
            this.output = output;
        }

        @Override
        public void line(String line) {
            if (line.contains("Read-only file system") || line.contains("Device or resource busy")) {
                seen = true;
            }
            output.line(line);
        }

        boolean seen() {
            return seen;
        }
    }

    private ExecResult run(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
        LineSplitter.Pair lines = LineSplitter.pair(output);
        Optional<ExecResult> result = attempt(request, lines, cancel);
        if (result.isPresent()) {
            return result.get();
        }
        // The container refused the command, so it never ran: run it once more, in a fresh container.
        container.replace();
        if (cancel.isCancelled()) {
            return new ExecResult(KILLED, ExecResult.Termination.CANCELLED).withNotice(REPLACED);
        }
        return attempt(request, lines, cancel)
                .orElseThrow(() -> new IOException(
                        "the sandbox container stopped answering, and so did the fresh one that replaced it"))
                .withNotice(REPLACED);
    }

    /** Runs the command; empty when the container refused to start it (see {@link DockerExec}). */
    private Optional<ExecResult> attempt(ExecRequest request, LineSplitter.Pair lines, Cancellation cancel)
            throws IOException {
        String id = container.ensureStarted();
        workspace.beforeCommand(container.files(id));
        long deadline = System.nanoTime() + request.timeout().toNanos();
        DockerExec exec;
        try {
            exec = DockerExec.start(docker, id, request.command(), request.directory(), lines.stdout(), lines.stderr());
        } catch (RuntimeException e) {
            log.warn("the sandbox container could not start a command", e);
            return Optional.empty();
        }
        ExecResult.Termination killedBy = exec.await(deadline, cancel);
        boolean replaced = killedBy != null && !container.killMarked(id, exec.marker());
        if (killedBy != null) {
            exec.awaitOutput();
        }
        exec.close();
        OptionalInt exitCode = exec.exitCode();
        lines.stdout().flush();
        lines.stderr().flush();
        if (exitCode.isEmpty()) {
            return Optional.empty();
        }
        ExecResult result = result(exitCode.getAsInt(), killedBy);
        if (replaced) {
            return Optional.of(result.withNotice(REPLACED));
        }
        if (killedBy == ExecResult.Termination.CANCELLED) {
            workspace.afterCommandInBackground(container.files(id));
            return Optional.of(result);
        }
        for (String notice : workspace.afterCommand(container.files(id))) {
            result = result.withNotice(notice);
        }
        return Optional.of(result);
    }

    private ExecResult result(int exitCode, ExecResult.Termination killedBy) {
        if (killedBy != null) {
            return new ExecResult(exitCode, killedBy);
        }
        if (exitCode == 137 && container.oomKilledSinceLastLook()) {
            return new ExecResult(exitCode, ExecResult.Termination.OUT_OF_MEMORY);
        }
        return ExecResult.exited(exitCode);
    }

    @Override
    public BackgroundProcess start(String command, Path directory, Path outputFolder) throws IOException {
        workspace.beforeCommand(container.files(container.ensureStarted()));
        BackgroundProcess started = jobs.start(
                command,
                outputFolder,
                outputFile -> DockerBackground.start(docker, container, command, directory, outputFile));
        sweeper.watch();
        return started;
    }

    /**
     * Starts the program in the session's container with {@code docker exec -i} (see {@link DockerAttachedProcess}):
     * the same mounts, user, limits and network as every command, {@code directory} a path in the container.
     */
    @Override
    public Process startAttached(List<String> command, Map<String, String> environment, Path directory)
            throws IOException {
        Process started = DockerAttachedProcess.start(docker, container, command, environment, directory);
        attached.add(started);
        sweeper.watch();
        return started;
    }

    /** Brings the container's copy up to date with the host before an attached program (an MCP server) works on it. */
    @Override
    public void syncIn() throws IOException {
        String id = container.id();
        if (id != null) {
            workspace.beforeCommand(container.files(id));
        }
    }

    /**
     * Copies back what an attached program or a background command changed, as after a command, and puts the protected
     * paths back as the session found them.
     */
    @Override
    public List<String> syncBack() {
        String id = container.id();
        List<String> notices = new ArrayList<>(id == null ? List.of() : workspace.afterCommand(container.files(id)));
        notices.addAll(sweeper.sweep("the program"));
        return notices;
    }

    @Override
    public HostWrites hostWrites() {
        return workspace.hostWrites();
    }

    @Override
    public List<BackgroundProcess> background() {
        return jobs.list();
    }

    /** Where the warning of a close that gave up on a stalled engine goes (one line); the log by default. */
    public void onWarning(Consumer<String> sink) {
        warnings = sink;
    }

    /** Sets {@link #CLOSE_LIMIT} and the ping's limit otherwise; for tests with an engine that never answers. */
    void closeLimit(Duration limit) {
        closeLimit = limit;
        container.removeLimit(limit, limit);
    }

    /** The container's id once the first command started it, else null; for tests and benchmarks. */
    public String containerId() {
        return container.id();
    }

    /**
     * Kills the background commands still running, copies back what changed in the container since the last command
     * (what a background command or an MCP server wrote), then removes the container, which ends every process in it
     * (see {@link SessionEnd}). A step that outlasts {@link #CLOSE_LIMIT} pings the engine and is waited for while it
     * answers: an engine that does not is given up on, with a one-line warning naming the container left behind.
     */
    @Override
    public void close() {
        closeAndReport();
    }

    /**
     * {@link #close}, returning the last copy back's sentences, and what the last sweep of the protected paths, once the
     * container was removed, could not put back or remove (or check): no command's result can carry them any more.
     */
    @Override
    public List<String> closeAndReport() {
        // The container's removal puts the protected paths back once more, on this machine, with nothing running.
        sweeper.stop();
        container.ending();
        SessionEnd.Outcome ended = SessionEnd.run(
                closeLimit,
                container::engineAnswers,
                // Each job's kill ends its process tree in the container (SweepScript's killer, by its marker).
                jobs::killAll,
                () -> {
                    workspace.settle();
                    String id = container.id();
                    List<String> notices = id == null ? List.of() : workspace.afterSession(container.files(id));
                    notices.forEach(notice -> log.warn("copying back at the end of the session: {}", notice));
                    return notices.stream()
                            .map(notice -> "copying back at the end of the session: " + notice)
                            .toList();
                },
                container::close);
        boolean copied = ended.copied();
        boolean removed = ended.removed();
        if (!removed) {
            container.abandon();
            String id = container.knownId();
            warnings.accept("the Docker engine at " + dockerHost + " did not answer within "
                    + seconds(closeLimit) + " as the session ended"
                    + (copied ? "" : ", so what changed in the sandbox since the last command was not copied back")
                    + (id == null
                            ? "; a sandbox container may be left there (the next start removes it)."
                            : "; the sandbox container " + id.substring(0, Math.min(12, id.length()))
                                    + " is left there (docker rm -f " + id.substring(0, Math.min(12, id.length()))
                                    + ")."));
        }
        Runnable closeClient = () -> {
            try {
                docker.close();
            } catch (IOException e) {
                log.debug("closing the Docker client failed", e);
            }
        };
        if (removed) {
            closeClient.run();
        } else {
            // Its connections may be held by the stalled calls; closing it is not waited for.
            Bounded.run("dockhand-docker-client-close", Duration.ZERO, closeClient);
        }
        if (ssh != null) {
            ssh.close();
        }
        List<String> notices = new ArrayList<>(ended.notices());
        notices.addAll(container.leftOnHost());
        return List.copyOf(notices);
    }

    /** What carries the connections to an engine at {@code ssh://}, if that is where it is; for tests. */
    Optional<SshBridge> sshBridge() {
        return Optional.ofNullable(ssh);
    }

    /** {@code 15 s}, or {@code 200 ms} for a limit that is not whole seconds. */
    private static String seconds(Duration limit) {
        return limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
    }

    /** The innermost cause's message, which says what the engine or the transport objected to. */
    static String reason(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.strip();
    }
}
