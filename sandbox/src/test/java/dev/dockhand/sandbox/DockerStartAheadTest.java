package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerMount;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container started ahead of the first command ({@link DockerSandbox#startAhead}), against a real engine: it runs
 * before any command is asked for, the first command uses it, a failure reaches the first command as its own start's
 * would, and a close while it starts leaves no container.
 */
@Tag("docker")
class DockerStartAheadTest {
    @TempDir
    Path workspace;

    private final List<DockerSandbox> opened = new ArrayList<>();
    private DockerClient docker;

    @BeforeEach
    void connect() throws IOException {
        workspace = workspace.toRealPath();
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        docker = DockerClientImpl.getInstance(
                config,
                new ZerodepDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .build());
    }

    @AfterEach
    void close() throws IOException {
        opened.forEach(DockerSandbox::close);
        docker.close();
    }

    private DockerSandbox open(DockerSettings settings, Supplier<List<ProtectedLayout>> layouts) {
        return open(settings, Map.of(), layouts);
    }

    private DockerSandbox open(
            DockerSettings settings, Map<String, String> hostEnv, Supplier<List<ProtectedLayout>> layouts) {
        DockerSandbox sandbox = DockerAvailable.sandbox(settings, workspace, hostEnv, layouts);
        opened.add(sandbox);
        return sandbox;
    }

    /**
     * A sandbox whose every bash, in the container, first runs {@code script} (passed as {@code BASH_ENV}, which bash
     * reads before a non-interactive command): how these tests see and hold the commands the sandbox runs.
     */
    private DockerSandbox openWithBashEnv(String script) throws IOException {
        Path bashEnv = Files.writeString(workspace.resolve("bash-env.sh"), script);
        DockerSettings settings = new DockerSettings(
                DockerSettings.DEFAULT_IMAGE,
                DockerSettings.DEFAULT.network(),
                DockerSettings.DEFAULT.memoryBytes(),
                DockerSettings.DEFAULT.cpus(),
                DockerSettings.DEFAULT.pids(),
                List.of("BASH_ENV"));
        return open(settings, Map.of("BASH_ENV", bashEnv.toString()), List::of);
    }

    /**
     * A named pipe in the workspace that every bash in the container reads a line from before it goes on, while it
     * exists: opening it for writing returns once a bash waits on it, so the test knows that bash is running.
     */
    private Path holdingPipe() throws IOException, InterruptedException {
        Path pipe = workspace.resolve("hold");
        assertEquals(0, new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor());
        return pipe;
    }

    private static String readsPipe(Path pipe) {
        return "if [ -p '" + pipe + "' ]; then read -r _ < '" + pipe + "'; fi\n";
    }

    private ExecResult run(DockerSandbox sandbox, String command) throws IOException {
        return sandbox.exec(
                new ExecRequest(command, workspace, Duration.ofSeconds(30)), line -> {}, new Cancellation());
    }

    /** The ids of the containers, running or not, that have this test's workspace mounted. */
    private List<String> containersOfThisWorkspace() {
        List<String> ids = new ArrayList<>();
        for (Container container : docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(
                        ContainerSpec.OWNER_PID,
                        Long.toString(ProcessHandle.current().pid())))
                .exec()) {
            List<ContainerMount> mounts = container.getMounts() == null ? List.of() : container.getMounts();
            if (mounts.stream().anyMatch(mount -> workspace.toString().equals(mount.getSource()))) {
                ids.add(container.getId());
            }
        }
        return ids;
    }

    /** Waits for a condition that has no event to wait on, polling; fails after 30 s. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + what);
            Thread.sleep(20);
        }
    }

    /** Protected layouts that hold the start up where it scans them, until {@link #release} is counted down. */
    private static final class HeldScan implements Supplier<List<ProtectedLayout>> {
        final CountDownLatch scanning = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public List<ProtectedLayout> get() {
            scanning.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of();
        }
    }

    @Test
    void theContainerRunsBeforeAnyCommandIsAskedForAndTheFirstCommandUsesIt() throws Exception {
        DockerSandbox sandbox = open(DockerSettings.DEFAULT, List::of);

        // Its start and warm-up over before any command is asked for: the container is there and running.
        assertTimeoutPreemptively(
                Duration.ofMinutes(2), () -> sandbox.startAhead().get());
        List<String> listed = containersOfThisWorkspace();
        assertEquals(1, listed.size(), listed.toString());
        String started = listed.get(0);

        assertEquals(true, docker.inspectContainerCmd(started).exec().getState().getRunning());
        assertEquals(ExecResult.exited(0), run(sandbox, "true"));
        assertEquals(started, sandbox.containerId());
        assertEquals(List.of(started), containersOfThisWorkspace());
    }

    @Test
    void theStartAheadRunsOneCommandTheWayCommandsRunBeforeTheFirstCommandComes() throws Exception {
        Path shells = workspace.resolve("shells");
        DockerSandbox sandbox = openWithBashEnv("echo \"$0\" >> '" + shells + "'\n");

        sandbox.startAhead().get(30, TimeUnit.SECONDS);
        // The sweep's wrapper (its $0 is "dockhand") and the command's own bash under it, as for every command.
        List<String> warmedUp = Files.readAllLines(shells);
        ExecResult first = run(sandbox, "true");

        assertEquals(List.of("dockhand", "bash"), warmedUp);
        assertEquals(ExecResult.exited(0), first);
        assertEquals(List.of("dockhand", "bash", "dockhand", "bash"), Files.readAllLines(shells));
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWarmUpThatFailsIsNotReportedAndTheFirstCommandMeetsTheDeadContainerItself() throws Exception {
        Path pipe = holdingPipe();
        DockerSandbox sandbox = openWithBashEnv(readsPipe(pipe));

        CompletableFuture<Void> started = sandbox.startAhead();
        try (OutputStream held = Files.newOutputStream(pipe)) {
            // The warm-up's bash waits on the pipe: the container dies under it.
            docker.killContainerCmd(sandbox.containerId()).exec();
        }
        Files.delete(pipe);
        started.get(30, TimeUnit.SECONDS);
        String dead = sandbox.containerId();
        ExecResult first = run(sandbox, "true");
        String fresh = sandbox.containerId();
        List<String> running = containersOfThisWorkspace();
        sandbox.close();

        assertEquals(ExecResult.exited(0).withNotice(DockerSandbox.REPLACED), first);
        assertNotEquals(dead, fresh);
        assertEquals(List.of(fresh), running);
        assertEquals(List.of(), containersOfThisWorkspace());
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void closingWhileTheWarmUpRunsLeavesNoContainerAndNoCommandAfterIt() throws Exception {
        Path pipe = holdingPipe();
        DockerSandbox sandbox = openWithBashEnv(readsPipe(pipe));

        CompletableFuture<Void> started = sandbox.startAhead();
        try (OutputStream held = Files.newOutputStream(pipe)) {
            // The warm-up's bash waits on the pipe while the session closes.
            sandbox.close();
        }
        started.get(30, TimeUnit.SECONDS);

        assertEquals(List.of(), containersOfThisWorkspace());
        assertEquals(
                "the sandbox is closed",
                assertThrows(IOException.class, () -> run(sandbox, "true")).getMessage());
        assertEquals(List.of(), containersOfThisWorkspace());
    }

    @Test
    void aStartThatFailedAheadRefusesTheFirstCommandAsItsOwnStartWouldHaveThenTheNextTriesAgain() throws Exception {
        // Preflight does not look at the network; the engine refuses to create a container on one that is missing.
        DockerSettings unstartable = new DockerSettings(
                DockerSettings.DEFAULT_IMAGE, "dockhand-no-such-network", 512L * 1024 * 1024, 1.0, 64, List.of());
        // Opened outside assertThrows: without an engine the open skips the test, which assertThrows would take for
        // the wrong exception.
        DockerSandbox plain = open(unstartable, List::of);
        IOException unaided = assertThrows(IOException.class, () -> run(plain, "true"));
        HeldScan scan = new HeldScan();
        DockerSandbox sandbox = open(unstartable, scan);

        sandbox.startAhead();
        scan.scanning.await();
        // The start under way holds the container until it has failed; the command then comes after it.
        scan.release.countDown();
        IOException first = assertThrows(IOException.class, () -> run(sandbox, "true"));
        IOException second = assertThrows(IOException.class, () -> run(sandbox, "true"));

        assertEquals(unaided.getMessage(), first.getMessage());
        assertEquals(unaided.getMessage(), second.getMessage());
        assertEquals(List.of(), containersOfThisWorkspace());
    }

    @Test
    void closingWhileTheContainerStartsLeavesNoContainer() throws Exception {
        HeldScan scan = new HeldScan();
        DockerSandbox sandbox = open(DockerSettings.DEFAULT, scan);

        sandbox.startAhead();
        scan.scanning.await();
        Thread closing = new Thread(sandbox::close, "closing");
        closing.start();
        // The close does its engine work on a thread of its own, which it waits for at most its limit.
        await("the close to wait for the start", () -> Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals("dockhand-sandbox-copy-back")
                        && thread.getState() == Thread.State.BLOCKED));
        scan.release.countDown();
        closing.join();

        assertEquals(List.of(), containersOfThisWorkspace());
        assertThrows(IOException.class, () -> run(sandbox, "true"));
        assertEquals(List.of(), containersOfThisWorkspace());
    }
}
