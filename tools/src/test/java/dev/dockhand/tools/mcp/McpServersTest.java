package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dockhand's MCP client against a real MCP server process built with the same SDK ({@link TestMcpServer}). */
class McpServersTest {
    @TempDir
    Path workspace;

    /** The test server with {@code args}, its crash tool left out. */
    private static McpServerEntry server(String... args) {
        return McpServerEntry.testServer(args).excludeTools(List.of("crash"));
    }

    private ToolResult call(McpServers servers, String name, String arguments) throws Exception {
        @SuppressWarnings("unchecked")
        Tool<Object> tool = (Tool<Object>) servers.tools().stream()
                .filter(candidate -> candidate.name().equals(name))
                .findFirst()
                .orElseThrow();
        return tool.execute(
                Json.MAPPER.readTree(arguments), TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
    }

    @Test
    void aServersToolsAreOfferedUnderPrefixedNamesAndTheirResultsComeBack() throws Exception {
        try (McpServers servers =
                McpServers.start(List.of(server().spec("test.server")), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(
                    List.of(new McpServers.Status(
                            "test.server",
                            "stdio",
                            McpServers.State.CONNECTED,
                            Optional.empty(),
                            List.of(
                                    new McpServers.ToolInfo("mcp__test_server__echo", "Says the message back."),
                                    new McpServers.ToolInfo("mcp__test_server__fail", "Always fails."),
                                    new McpServers.ToolInfo("mcp__test_server__wait", "Never answers."),
                                    new McpServers.ToolInfo("mcp__test_server__picture", "An image and a link."),
                                    new McpServers.ToolInfo("mcp__test_server__add-tool", "Adds the tool late."),
                                    new McpServers.ToolInfo("mcp__test_server__cancelled", "The cancelled calls.")),
                            false,
                            null,
                            false)),
                    servers.statuses());
            assertEquals(
                    ToolResult.success("Echo: hi", "Echo: hi"),
                    call(servers, "mcp__test_server__echo", "{\"message\":\"hi\"}"));
            assertEquals(
                    Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"}},"
                            + "\"required\":[\"message\"]}"),
                    servers.tools().get(0).parameterSchema());
        }
    }

    @Test
    void anErrorResultIsAnErrorImagesComeBesideTheTextAndLinksAreDescribed() throws Exception {
        try (McpServers servers = McpServers.start(List.of(server().spec("t")), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(
                    ToolResult.error(ToolErrorType.EXECUTION_FAILED, "the disk is full"),
                    call(servers, "mcp__t__fail", "{}"));
            String picture = "[resource link notes: file:///notes.txt]\n{\"width\":1}";
            assertEquals(
                    ToolResult.success(picture, "[resource link notes: file:///notes.txt] · an image")
                            .withImages(List.of(new Image("image/png", TestMcpServer.PNG))),
                    call(servers, "mcp__t__picture", "{}"));
        }
    }

    @Test
    void onlyATrustedServersReadOnlyToolsRunAsReads() {
        try (McpServers untrusted = McpServers.start(List.of(server().spec("u")), workspace, McpServers.START_TIMEOUT);
                McpServers trusted = McpServers.start(
                        List.of(server().trust(true).spec("t")), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(
                    List.of(
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE),
                    untrusted.tools().stream().map(Tool::kind).toList());
            assertEquals(
                    List.of(
                            ToolKind.READ,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE,
                            ToolKind.EXECUTE),
                    trusted.tools().stream().map(Tool::kind).toList());
        }
    }

    @Test
    void aCallThatOutlivesTheTimeoutFailsWithASentence() throws Exception {
        try (McpServers servers =
                McpServers.start(List.of(server().timeout(300L).spec("slow")), workspace, McpServers.START_TIMEOUT)) {
            ToolResult result = call(servers, "mcp__slow__wait", "{}");
            assertEquals(Optional.of(ToolErrorType.EXECUTION_FAILED), result.error());
            assertEquals("The MCP server 'slow' did not answer the wait call within 300 ms.", result.llmContent());
        }
    }

    @Test
    void aServerThatCannotStartIsReportedWithItsStderrAndOffersNoTools() {
        McpServerSpec broken =
                McpServerEntry.testServer("broken").required(true).spec("broken");
        try (McpServers servers = McpServers.start(List.of(broken), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(List.of(), servers.tools());
            assertEquals(
                    Optional.of("The required MCP server 'broken' did not start: its process exited with code 2."
                            + " Its stderr ended with:\ntest server: no API token in TEST_TOKEN"),
                    servers.failedRequired());
            assertEquals(
                    "test server: no API token in TEST_TOKEN",
                    servers.statuses()
                            .get(0)
                            .failure()
                            .orElseThrow()
                            .lines()
                            .reduce((a, b) -> b)
                            .orElseThrow());
        }
    }

    @Test
    void aServerThatCrashesFailsThatCallAndIsStartedAgainOnceOnTheNext() throws Exception {
        List<String> changes = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (McpServers servers = McpServers.startInBackground(
                List.of(server().excludeTools(List.of()).spec("c")),
                workspace,
                McpServers.START_TIMEOUT,
                status -> changes.add(status.state() + " " + status.change()),
                name -> true)) {
            servers.awaitAll();
            ToolResult crashed = call(servers, "mcp__c__crash", "{}");
            assertEquals(Optional.of(ToolErrorType.EXECUTION_FAILED), crashed.error());
            assertEquals(
                    "The MCP server 'c' stopped with exit code 3, so the crash call did not run to the end."
                            + " Its stderr ended with:\ntest server: starting\ntest server: crashing on purpose",
                    crashed.llmContent());

            assertEquals(
                    ToolResult.success("Echo: hi", "Echo: hi"), call(servers, "mcp__c__echo", "{\"message\":\"hi\"}"));
            assertEquals(
                    List.of("CONNECTED null", "CONNECTED restarted", "CONNECTED tools_changed"),
                    changes.stream()
                            .filter(change -> !change.equals("CONNECTED tools_changed") || changes.indexOf(change) > 0)
                            .distinct()
                            .toList());

            call(servers, "mcp__c__crash", "{}");
            assertEquals(
                    ToolResult.error(
                            ToolErrorType.EXECUTION_FAILED,
                            "The MCP server 'c' is not running: stopped with exit code 3 (it was restarted once"
                                    + " already)"),
                    call(servers, "mcp__c__echo", "{\"message\":\"hi\"}"));
        }
    }

    @Test
    void aServersToolsJoinWhenItHasStartedAndACallToOneWaitsForIt() throws Exception {
        Path gate = workspace.resolve("gate");
        try (McpServers servers = McpServers.startInBackground(
                List.of(server("gate", gate.toString()).spec("g")),
                workspace,
                McpServers.START_TIMEOUT,
                status -> {},
                name -> !name.equals("mcp__g__fail"))) {
            assertEquals(List.of(), servers.current());
            assertEquals(McpServers.State.STARTING, servers.statuses().get(0).state());
            java.nio.file.Files.createFile(gate);

            Tool<?> echo = servers.await("mcp__g__echo").orElseThrow();

            assertEquals("mcp__g__echo", echo.name());
            assertEquals(
                    List.of("mcp__g__echo", "mcp__g__wait", "mcp__g__picture", "mcp__g__add-tool", "mcp__g__cancelled"),
                    servers.current().stream().map(Tool::name).toList());
            assertEquals(Optional.empty(), servers.await("mcp__g__fail"));
        }
    }

    @Test
    void aToolListChangeRefreshesTheServersTools() throws Exception {
        java.util.concurrent.CountDownLatch changed = new java.util.concurrent.CountDownLatch(1);
        try (McpServers servers = McpServers.startInBackground(
                List.of(server().spec("t")),
                workspace,
                McpServers.START_TIMEOUT,
                status -> {
                    if ("tools_changed".equals(status.change())) {
                        changed.countDown();
                    }
                },
                name -> true)) {
            servers.awaitAll();
            List<Tool<?>> before = servers.current();

            assertEquals(ToolResult.success("added", "added"), call(servers, "mcp__t__add-tool", "{}"));
            assertEquals(true, changed.await(30, java.util.concurrent.TimeUnit.SECONDS));

            assertEquals(
                    List.of(
                            "mcp__t__echo",
                            "mcp__t__fail",
                            "mcp__t__wait",
                            "mcp__t__picture",
                            "mcp__t__add-tool",
                            "mcp__t__cancelled",
                            "mcp__t__late"),
                    servers.current().stream().map(Tool::name).toList());
            // An unchanged tool keeps its object (and its compiled schema with it).
            assertEquals(true, before.get(0) == servers.current().get(0));
            assertEquals(ToolResult.success("late", "late"), call(servers, "mcp__t__late", "{}"));
        }
    }

    @Test
    void aCancelledCallIsCancelledAtTheServerAndItsProgressIsReported() throws Exception {
        try (McpServers servers = McpServers.start(List.of(server().spec("w")), workspace, McpServers.START_TIMEOUT)) {
            @SuppressWarnings("unchecked")
            Tool<Object> wait = (Tool<Object>) servers.await("mcp__w__wait").orElseThrow();
            dev.dockhand.core.Cancellation cancellation = new dev.dockhand.core.Cancellation();
            List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
            dev.dockhand.core.tool.OutputSink output = new dev.dockhand.core.tool.OutputSink() {
                @Override
                public void line(String line) {}

                @Override
                public void progress(double done, Double total, String message) {
                    progress.add(done + " " + total + " " + message);
                    // The call is running at the server now: cancel it.
                    cancellation.cancel();
                }
            };

            ToolResult result = wait.execute(
                    Json.MAPPER.readTree("{}"),
                    TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS, output, cancellation));

            assertEquals(ToolResult.error(ToolErrorType.CANCELLED, "The wait call was cancelled."), result);
            assertEquals(List.of("0.0 null waiting"), progress);
            assertEquals(
                    ToolResult.success(
                            "cancelled: [wait (The user cancelled the call.)]",
                            "cancelled: [wait (The user cancelled the call.)]"),
                    call(servers, "mcp__w__cancelled", "{}"));
        }
    }

    @Test
    void aCancelledCallStopsWaiting() throws Exception {
        try (McpServers servers = McpServers.start(List.of(server().spec("w")), workspace, McpServers.START_TIMEOUT)) {
            @SuppressWarnings("unchecked")
            Tool<Object> wait = (Tool<Object>) servers.await("mcp__w__wait").orElseThrow();
            dev.dockhand.core.Cancellation cancellation = new dev.dockhand.core.Cancellation();
            cancellation.cancel();
            assertEquals(
                    ToolResult.error(ToolErrorType.CANCELLED, "The wait call was cancelled."),
                    wait.execute(
                            Json.MAPPER.readTree("{}"),
                            TestEnvironments.context(
                                    workspace,
                                    TestEnvironments.NO_COMMANDS,
                                    dev.dockhand.core.tool.OutputSink.NONE,
                                    cancellation)));
        }
    }
}
