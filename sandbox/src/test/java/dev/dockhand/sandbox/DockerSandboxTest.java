package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The sandbox contract, and what only a container promises, against a real Docker engine. */
@Tag("docker")
class DockerSandboxTest extends SandboxContractTest {

    @Override
    protected Sandbox createSandbox(Path workspace) {
        return DockerAvailable.sandbox(DockerSettings.DEFAULT, workspace, Map.of());
    }

    private DockerSandbox withSettings(DockerSettings settings, Map<String, String> hostEnv) {
        sandbox.close();
        DockerSandbox docker = DockerAvailable.sandbox(settings, workspace, hostEnv);
        sandbox = docker;
        return docker;
    }

    private static DockerSettings settings(long memoryBytes, long pids, List<String> env) {
        return new DockerSettings(DockerSettings.DEFAULT_IMAGE, "none", memoryBytes, 2.0, pids, env);
    }

    @Test
    void commandsRunInsideAContainer() throws Exception {
        ExecResult result = run("test -f /.dockerenv && hostname");

        assertEquals(ExecResult.exited(0), result);
        assertNotEquals(HostIdentity.hostname(), lines.get(0));
    }

    @Test
    void filesCreatedInsideBelongToTheHostUser() throws Exception {
        assertEquals(ExecResult.exited(0), run("echo made > inside.txt"));

        Path made = workspace.resolve("inside.txt");
        assertEquals("made\n", Files.readString(made));
        assertEquals(HostIdentity.current().uid(), Files.getAttribute(made, "unix:uid"));
    }

    @Test
    void theHostsLoopbackIsUnreachable() throws Exception {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ExecResult result = run("timeout 5 bash -c 'echo hi > /dev/tcp/127.0.0.1/" + listening.getLocalPort()
                    + "' && echo reached || echo unreachable");

            assertEquals(ExecResult.exited(0), result);
            // stderr's "Connection refused" may come before or after; only the verdict matters.
            assertTrue(lines.contains("unreachable") && !lines.contains("reached"), lines.toString());
        }
    }

    @Test
    void aForkBombIsStoppedByThePidsLimitAndTheSessionGoesOn() throws Exception {
        withSettings(settings(512L * 1024 * 1024, 64, List.of()), Map.of());

        ExecResult bomb = run("bomb() { bomb | bomb & }; bomb; sleep 30", Duration.ofSeconds(3), new Cancellation());
        lines.clear();
        ExecResult after = run("echo alive");

        assertEquals(ExecResult.Termination.TIMED_OUT, bomb.termination());
        assertEquals(ExecResult.exited(0), withoutNotice(after));
        assertEquals(List.of("alive"), lines);
    }

    @Test
    void aForkBombLeftBehindByACommandThatExitedEndsWithIt() throws Exception {
        withSettings(settings(512L * 1024 * 1024, 64, List.of()), Map.of());

        run("bomb() { bomb | bomb & }; bomb");
        lines.clear();
        ExecResult after = run("echo alive");

        assertEquals(ExecResult.exited(0), withoutNotice(after));
        assertEquals(List.of("alive"), lines);
    }

    /**
     * A fork bomb's result, and the next command's, may or may not say the container was replaced: that depends on
     * whether the killer won the race for the last free pids.
     */
    private static ExecResult withoutNotice(ExecResult result) {
        return new ExecResult(result.exitCode(), result.termination());
    }

    @Test
    void aContainerKilledFromOutsideIsReplacedAtTheNextCommandWhoseResultSaysSo() throws Exception {
        DockerSandbox docker = (DockerSandbox) sandbox;
        run("echo before > /tmp/outside-the-workspace");
        String first = docker.containerId();
        try (DockerClient client = client()) {
            client.killContainerCmd(first).exec();
        }
        lines.clear();

        ExecResult result = run("echo alive; cat /tmp/outside-the-workspace 2>/dev/null || echo lost");

        assertEquals(ExecResult.exited(0).withNotice(DockerSandbox.REPLACED), result);
        assertEquals(List.of("alive", "lost"), lines);
        assertNotEquals(first, docker.containerId());
        try (DockerClient client = client()) {
            assertTrue(client.listContainersCmd()
                    .withShowAll(true)
                    .withIdFilter(List.of(first))
                    .exec()
                    .isEmpty());
        }
    }

    @Test
    void aContainerWhoseProcessLimitIsFullIsReplacedAtTheNextCommandWhoseResultSaysSo() throws Exception {
        withSettings(settings(512L * 1024 * 1024, 32, List.of()), Map.of());
        // Forks sleeping children until the limit refuses one, then sleeps too: the limit stays full.
        Files.writeString(
                workspace.resolve("hog.py"),
                """
                import os, time
                while True:
                    try:
                        if os.fork() == 0:
                            time.sleep(1000)
                            os._exit(0)
                    except OSError:
                        print("full", flush=True)
                        time.sleep(1000)
                """);
        BackgroundProcess hog = sandbox.start("python3 hog.py", workspace, outputs);
        await("the process limit to fill", () -> content(hog.outputFile()).contains("full"));

        ExecResult result = run("echo alive");

        assertEquals(ExecResult.exited(0).withNotice(DockerSandbox.REPLACED), result);
        assertEquals(List.of("alive"), lines);
        assertEquals(Optional.of(new ExecResult(137, ExecResult.Termination.CANCELLED)), hog.result());
    }

    @Test
    void aMemoryHogIsKilledAndReportedAsOutOfMemory() throws Exception {
        withSettings(settings(128L * 1024 * 1024, 512, List.of()), Map.of());

        ExecResult result = run("python3 -c 'b = bytearray(512 * 1024 * 1024); print(len(b))'");

        assertEquals(new ExecResult(137, ExecResult.Termination.OUT_OF_MEMORY), result);
    }

    @Test
    void aCommandKilledAtItsTimeOutIsGoneFromTheContainer() throws Exception {
        ExecResult result = run("sleep 1000", Duration.ofMillis(500), new Cancellation());
        lines.clear();
        run("ps -eo args | grep -c '^sleep 1000$' || true");

        assertEquals(ExecResult.Termination.TIMED_OUT, result.termination());
        assertEquals(List.of("0"), lines);
    }

    @Test
    void onlyAllowlistedVariablesReachTheContainer() throws Exception {
        withSettings(
                settings(512L * 1024 * 1024, 512, List.of("GREETING")),
                Map.of("GREETING", "hello", "OPENAI_API_KEY", "sk-secret"));

        run("echo \"${GREETING:-unset} ${OPENAI_API_KEY:-no-key}\"; env | grep -c sk-secret || true");

        assertEquals(List.of("hello no-key", "0"), lines);
    }

    @Test
    void noContainerIsLeftAfterTheSessionEnds() throws Exception {
        run("true");
        String id = ((DockerSandbox) sandbox).containerId();
        assertTrue(id != null);

        sandbox.close();

        try (DockerClient docker = client()) {
            assertTrue(docker.listContainersCmd()
                    .withShowAll(true)
                    .withIdFilter(List.of(id))
                    .exec()
                    .isEmpty());
        }
    }

    @Test
    void aContainerLeftByAKilledJvmIsRemovedAtTheNextStart() throws Exception {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        DockerSandboxChild.class.getName(),
                        workspace.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
            String line;
            while ((line = out.readLine()) != null && !line.equals("started")) {
                // Skip anything the child prints before its command runs.
            }
            assertEquals("started", line);
        }
        long childPid = child.pid();
        child.destroyForcibly().waitFor();
        try (DockerClient docker = client()) {
            assertEquals(1, leftBy(docker, childPid).size(), "the killed JVM should have left its container");

            ((DockerSandbox) sandbox).preflight();

            assertEquals(List.of(), leftBy(docker, childPid));
        }
    }

    private static List<String> leftBy(DockerClient docker, long pid) {
        List<String> ids = new ArrayList<>();
        docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(ContainerSpec.OWNER_PID, Long.toString(pid)))
                .exec()
                .forEach(container -> ids.add(container.getId()));
        return ids;
    }

    private static DockerClient client() {
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        return DockerClientImpl.getInstance(
                config,
                new ZerodepDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .build());
    }

    @Test
    void workspacePathsMeanTheSameInside() throws Exception {
        Files.createDirectories(workspace.resolve("deep/er"));

        ExecResult result = sandbox.exec(
                new ExecRequest("pwd", workspace.resolve("deep/er"), Duration.ofSeconds(30)),
                lines::add,
                new Cancellation());

        assertEquals(ExecResult.exited(0), result);
        assertEquals(List.of(workspace.resolve("deep/er").toString()), lines);
        assertFalse(lines.isEmpty());
    }
}
