package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dockhand's MCP client against a real MCP server process built with the same SDK ({@link TestMcpServer}). */
class McpServersTest {
    @TempDir
    Path workspace;

    private static McpServerSpec server(String name, Long timeout, Boolean trust, String... args) {
        return server(name, timeout, trust, List.of("crash"), args);
    }

    private static McpServerSpec server(
            String name, Long timeout, Boolean trust, List<String> excluded, String... args) {
        List<String> command = TestMcpServer.commandLine(args);
        return McpServerSpec.of(
                name,
                new Settings.McpServer(
                        null,
                        command.get(0),
                        command.subList(1, command.size()),
                        Map.of(),
                        null,
                        null,
                        null,
                        null,
                        excluded,
                        timeout,
                        trust,
                        null),
                System::getenv);
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
                McpServers.start(List.of(server("test.server", null, null)), workspace, McpServers.START_TIMEOUT)) {
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
                                    new McpServers.ToolInfo("mcp__test_server__picture", "An image and a link.")))),
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
    void anErrorResultIsAnErrorAndImagesAndLinksAreDescribed() throws Exception {
        try (McpServers servers =
                McpServers.start(List.of(server("t", null, null)), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(
                    ToolResult.error(ToolErrorType.EXECUTION_FAILED, "the disk is full"),
                    call(servers, "mcp__t__fail", "{}"));
            String picture = "[image image/png, 5 bytes, not shown]\n[resource link notes: file:///notes.txt]\n"
                    + "{\"width\":1}";
            assertEquals(
                    ToolResult.success(picture, "[image image/png, 5 bytes, not shown]"),
                    call(servers, "mcp__t__picture", "{}"));
        }
    }

    @Test
    void onlyATrustedServersReadOnlyToolsRunAsReads() {
        try (McpServers untrusted =
                        McpServers.start(List.of(server("u", null, null)), workspace, McpServers.START_TIMEOUT);
                McpServers trusted =
                        McpServers.start(List.of(server("t", null, true)), workspace, McpServers.START_TIMEOUT)) {
            assertEquals(
                    List.of(ToolKind.EXECUTE, ToolKind.EXECUTE, ToolKind.EXECUTE, ToolKind.EXECUTE),
                    untrusted.tools().stream().map(Tool::kind).toList());
            assertEquals(
                    List.of(ToolKind.READ, ToolKind.EXECUTE, ToolKind.EXECUTE, ToolKind.EXECUTE),
                    trusted.tools().stream().map(Tool::kind).toList());
        }
    }

    @Test
    void aCallThatOutlivesTheTimeoutFailsWithASentence() throws Exception {
        try (McpServers servers =
                McpServers.start(List.of(server("slow", 300L, null)), workspace, McpServers.START_TIMEOUT)) {
            ToolResult result = call(servers, "mcp__slow__wait", "{}");
            assertEquals(Optional.of(ToolErrorType.EXECUTION_FAILED), result.error());
            assertEquals("The MCP server 'slow' did not answer the wait call within 300 ms.", result.llmContent());
        }
    }

    @Test
    void aServerThatCannotStartIsReportedWithItsStderrAndOffersNoTools() {
        McpServerSpec broken = McpServerSpec.of(
                "broken",
                new Settings.McpServer(
                        null,
                        TestMcpServer.commandLine().get(0),
                        TestMcpServer.commandLine("broken").subList(1, 6),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        true),
                System::getenv);
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
    void aServerThatCrashesMidCallFailsThatCallAndTheNextWithItsExitCode() throws Exception {
        try (McpServers servers =
                McpServers.start(List.of(server("c", null, null, List.of())), workspace, McpServers.START_TIMEOUT)) {
            ToolResult crashed = call(servers, "mcp__c__crash", "{}");
            assertEquals(Optional.of(ToolErrorType.EXECUTION_FAILED), crashed.error());
            assertEquals(
                    "The MCP server 'c' stopped with exit code 3, so the crash call did not run to the end."
                            + " Its stderr ended with:\ntest server: starting\ntest server: crashing on purpose",
                    crashed.llmContent());
            assertEquals(
                    ToolResult.error(
                            ToolErrorType.EXECUTION_FAILED,
                            "The MCP server 'c' is not running: stopped with exit code 3"),
                    call(servers, "mcp__c__echo", "{\"message\":\"hi\"}"));
        }
    }

    @Test
    void aCancelledCallStopsWaiting() throws Exception {
        try (McpServers servers =
                McpServers.start(List.of(server("w", null, null)), workspace, McpServers.START_TIMEOUT)) {
            @SuppressWarnings("unchecked")
            Tool<Object> wait = (Tool<Object>) servers.tools().get(2);
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
