package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.sandbox.DockerSandbox;
import dev.dockhand.sandbox.DockerSettings;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with {@code "sandbox": true}: run in the session's Docker container, never on this machine. The server
 * is {@code mcp/sandbox-mcp-server.py} (python3, which the sandbox image has; it has no Java for {@link
 * TestMcpServer}), copied into the workspace's {@code tools} folder.
 */
class SandboxedMcpServersTest {
    @TempDir
    Path workspace;

    /** A folder of this machine that the container does not mount. */
    @TempDir
    Path hostOnly;

    private DockerSandbox docker;

    @AfterEach
    void closeSandbox() {
        if (docker != null) {
            docker.close();
        }
    }

    private McpServerSpec server(String name, String command, List<String> args, String cwd) {
        return McpServerEntry.command(command, args)
                .env(Map.of("GREETING", "hi"))
                .cwd(cwd)
                .sandbox(true)
                .spec(name);
    }

    /** The test server, copied into {@code tools/} of the workspace, started from there. */
    private McpServerSpec pythonServer(String name) throws IOException {
        Path tools = Files.createDirectories(workspace.resolve("tools"));
        try (InputStream script = getClass().getResourceAsStream("/mcp/sandbox-mcp-server.py")) {
            Files.copy(script, tools.resolve("server.py"));
        }
        return server(name, "python3", List.of("server.py"), "tools");
    }

    private CompletableFuture<Sandbox> dockerSandbox() throws IOException {
        workspace = workspace.toRealPath();
        docker = DockerSandbox.connect(DockerSettings.DEFAULT, workspace, List.of(), Map.of());
        try {
            docker.preflight();
        } catch (SandboxUnavailableException e) {
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + e.getMessage(), e);
            }
            assumeTrue(false, "Docker tests skipped: " + e.getMessage());
        }
        return CompletableFuture.completedFuture(docker);
    }

    /**
     * A sandbox on the second engine of scripts/docker-remote-setup.sh (TCP with TLS, a data root of its own), where
     * the workspace is copied in and back: DOCKHAND_REMOTE_DOCKER_HOST and DOCKHAND_REMOTE_DOCKER_CERT_PATH name it;
     * without them the test is skipped with the reason, or fails when DOCKHAND_REQUIRE_DOCKER=1.
     */
    private CompletableFuture<Sandbox> remoteDockerSandbox() throws IOException {
        String host = System.getenv("DOCKHAND_REMOTE_DOCKER_HOST");
        String certs = System.getenv("DOCKHAND_REMOTE_DOCKER_CERT_PATH");
        if (host == null || host.isBlank() || certs == null || certs.isBlank()) {
            String reason = "DOCKHAND_REMOTE_DOCKER_HOST and DOCKHAND_REMOTE_DOCKER_CERT_PATH are not set"
                    + " (scripts/docker-remote-setup.sh starts the engine and writes them)";
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + reason);
            }
            assumeTrue(false, "Remote-engine tests skipped: " + reason);
        }
        workspace = workspace.toRealPath();
        docker = DockerSandbox.connect(
                DockerSettings.DEFAULT,
                workspace,
                List.of(),
                Map.of("DOCKER_HOST", host, "DOCKER_TLS_VERIFY", "1", "DOCKER_CERT_PATH", certs));
        try {
            docker.preflight();
        } catch (SandboxUnavailableException e) {
            fail("the remote engine named by DOCKHAND_REMOTE_DOCKER_HOST does not answer: " + e.getMessage(), e);
        }
        return CompletableFuture.completedFuture(docker);
    }

    private ToolResult call(McpServers servers, String name, String arguments) throws Exception {
        return call(servers, name, arguments, OutputSink.NONE, new Cancellation());
    }

    private ToolResult call(
            McpServers servers, String name, String arguments, OutputSink output, Cancellation cancellation)
            throws Exception {
        @SuppressWarnings("unchecked")
        Tool<Object> tool = (Tool<Object>) servers.await(name).orElseThrow();
        return tool.execute(
                Json.MAPPER.readTree(arguments),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS, output, cancellation));
    }

    /** How many processes in the container have {@code text} in their command line. */
    private String countInContainer(String text) throws IOException {
        List<String> lines = new CopyOnWriteArrayList<>();
        // The first character in brackets keeps this command's own line from matching it.
        String pattern = "[" + text.charAt(0) + "]" + text.substring(1);
        ExecResult result = docker.exec(
                new ExecRequest("ps -eo args= | grep -c '" + pattern + "' || true", workspace, Duration.ofSeconds(30)),
                lines::add,
                new Cancellation());
        assertEquals(ExecResult.exited(0), result);
        return String.join("\n", lines);
    }

    /** Waits for the container to have no process with {@code text} (a kill that follows a message); fails after 30 s. */
    private void awaitGoneFromContainer(String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!countInContainer(text).equals("0")) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + text + " to end in the container");
        }
    }

    private static String sleeper() {
        return "1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
    }

    @Test
    void aSandboxedServerDoesNotStartWithoutADockerSandboxAndNeverOnThisMachine() {
        Path ran = hostOnly.resolve("ran");
        McpServerSpec spec = server("s", "bash", List.of("-c", "touch " + ran + "; sleep 30"), null);
        LocalSandbox local = new LocalSandbox(Map.of("PATH", System.getenv("PATH")));
        try (McpServers servers = McpServers.start(
                List.of(spec), workspace, McpServers.START_TIMEOUT, CompletableFuture.completedFuture(local))) {
            assertEquals(
                    List.of(new McpServers.Status(
                            "s",
                            "stdio",
                            McpServers.State.FAILED,
                            Optional.of("did not start: it is set to run in the sandbox (\"sandbox\": true) and this"
                                    + " session has no Docker sandbox (--sandbox none), so it was not started on this"
                                    + " machine instead."),
                            List.of(),
                            false,
                            null,
                            true)),
                    servers.statuses());
        }
        assertFalse(Files.exists(ran));
    }

    @Test
    void aSandboxedServerDoesNotStartWhereNoSandboxIsGiven() {
        Path ran = hostOnly.resolve("ran");
        McpServerSpec spec = server("s", "bash", List.of("-c", "touch " + ran + "; sleep 30"), null);
        try (McpServers servers = McpServers.start(List.of(spec), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(
                    Optional.of("did not start: it is set to run in the sandbox (\"sandbox\": true) and there is no"
                            + " sandbox here, so it was not started on this machine instead."),
                    servers.statuses().get(0).failure());
        }
        assertFalse(Files.exists(ran));
    }

    @Test
    void aSandboxThatDoesNotOpenFailsTheServersStartWithItsReason() {
        McpServerSpec spec = server("s", "python3", List.of("server.py"), null);
        try (McpServers servers = McpServers.start(
                List.of(spec),
                workspace,
                McpServers.START_TIMEOUT,
                CompletableFuture.failedFuture(new IllegalStateException("Docker does not answer")))) {
            assertEquals(
                    Optional.of("did not start: it runs in the sandbox, which did not open: Docker does not answer."),
                    servers.statuses().get(0).failure());
        }
    }

    @Test
    @Tag("docker")
    void aSandboxedServerIsDiscoveredAndCalledInTheContainerAndSeesTheWorkspaceButNotTheHost() throws Exception {
        CompletableFuture<Sandbox> sandbox = dockerSandbox();
        Files.writeString(workspace.resolve("from-host.txt"), "x");
        Files.writeString(hostOnly.resolve("secret.txt"), "x");
        try (McpServers servers =
                McpServers.start(List.of(pythonServer("box")), workspace, McpServers.START_TIMEOUT, sandbox)) {
            McpServers.Status status = servers.statuses().get(0);
            assertEquals(
                    List.of(McpServers.State.CONNECTED, true),
                    List.of(status.state(), status.sandboxed()),
                    status.failure().orElse(""));
            assertEquals(
                    List.of(
                            "mcp__box__echo",
                            "mcp__box__list_dir",
                            "mcp__box__spawn_sleeper",
                            "mcp__box__slow",
                            "mcp__box__crash",
                            "mcp__box__write_file"),
                    status.tools().stream().map(McpServers.ToolInfo::name).toList());

            assertEquals(
                    ToolResult.success("echo: hi", "echo: hi"), call(servers, "mcp__box__echo", "{\"text\":\"hi\"}"));
            // The workspace is mounted at its own path; the server's cwd was resolved against it.
            assertEquals(
                    ToolResult.success("from-host.txt\ntools", "from-host.txt"),
                    call(
                            servers,
                            "mcp__box__list_dir",
                            "{\"path\":" + Json.MAPPER.writeValueAsString(workspace.toString()) + "}"));
            assertEquals(
                    ToolResult.success("server.py", "server.py"),
                    call(servers, "mcp__box__list_dir", "{\"path\":\".\"}"));
            ToolResult host = call(
                    servers,
                    "mcp__box__list_dir",
                    "{\"path\":" + Json.MAPPER.writeValueAsString(hostOnly.toString()) + "}");
            assertEquals(
                    List.of(
                            Optional.of(ToolErrorType.EXECUTION_FAILED),
                            "[Errno 2] No such file or directory: '" + hostOnly + "'"),
                    List.of(host.error(), host.llmContent()));
        }
    }

    @Test
    @Tag("docker")
    void aCancelledCallIsCancelledInTheContainerAndStoppingTheServerLeavesNoProcessThere() throws Exception {
        CompletableFuture<Sandbox> sandbox = dockerSandbox();
        String slow = sleeper();
        String left = sleeper();
        McpServers servers =
                McpServers.start(List.of(pythonServer("box")), workspace, McpServers.START_TIMEOUT, sandbox);
        try {
            Cancellation cancellation = new Cancellation();
            List<String> progress = new ArrayList<>();
            OutputSink output = new OutputSink() {
                @Override
                public void line(String line) {}

                @Override
                public void progress(double done, Double total, String message) {
                    progress.add(message);
                    // The sleep runs in the container now: cancel the call.
                    cancellation.cancel();
                }
            };
            assertEquals(
                    ToolResult.error(ToolErrorType.CANCELLED, "The slow call was cancelled."),
                    call(servers, "mcp__box__slow", "{\"tag\":\"" + slow + "\"}", output, cancellation));
            assertEquals(List.of("sleeping"), progress);
            // notifications/cancelled went through the exec's stdin: the server killed its sleep.
            awaitGoneFromContainer("sleep " + slow);

            assertEquals(
                    ToolResult.success("started", "started"),
                    call(servers, "mcp__box__spawn_sleeper", "{\"tag\":\"" + left + "\"}"));
            assertEquals("1", countInContainer("sleep " + left));
        } finally {
            servers.close();
        }
        // The server and the process it left in a session of its own are gone, at once: no waiting here.
        assertEquals(
                List.of("0", "0"), List.of(countInContainer("sleep " + left), countInContainer("python3 server.py")));
    }

    @Test
    @Tag("docker")
    void underARemoteEngineACallSeesTheHostsLatestFilesAndWhatItWritesIsOnTheHostWhenItReturns() throws Exception {
        CompletableFuture<Sandbox> sandbox = remoteDockerSandbox();
        try (McpServers servers =
                McpServers.start(List.of(pythonServer("box")), workspace, McpServers.START_TIMEOUT, sandbox)) {
            // Written on the host after the workspace was copied into the container for the server.
            Files.writeString(workspace.resolve("late.txt"), "x");
            assertEquals(
                    ToolResult.success("late.txt\ntools", "late.txt"),
                    call(
                            servers,
                            "mcp__box__list_dir",
                            "{\"path\":" + Json.MAPPER.writeValueAsString(workspace.toString()) + "}"));

            assertEquals(
                    ToolResult.success("wrote ../made.txt", "wrote ../made.txt"),
                    call(servers, "mcp__box__write_file", "{\"path\":\"../made.txt\",\"text\":\"by the server\\n\"}"));
            // No command ran: the copy back followed the call.
            assertEquals("by the server\n", Files.readString(workspace.resolve("made.txt")));
        }
    }

    @Test
    @Tag("docker")
    void aSandboxedServerThatCrashesIsStartedAgainOnceInTheContainer() throws Exception {
        CompletableFuture<Sandbox> sandbox = dockerSandbox();
        try (McpServers servers =
                McpServers.start(List.of(pythonServer("box")), workspace, McpServers.START_TIMEOUT, sandbox)) {
            ToolResult crashed = call(servers, "mcp__box__crash", "{}");
            assertEquals(
                    List.of(
                            Optional.of(ToolErrorType.EXECUTION_FAILED),
                            "The MCP server 'box' stopped with exit code 3, so the crash call did not run to the end."),
                    List.of(crashed.error(), crashed.llmContent()));

            assertEquals(
                    ToolResult.success("echo: again", "echo: again"),
                    call(servers, "mcp__box__echo", "{\"text\":\"again\"}"));
            assertEquals("1", countInContainer("python3 server.py"));
        }
    }
}
