package dev.dockhand.tools.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A real MCP server over stdio, built with the same SDK, run as its own process by the tests. Its tools: {@code echo}
 * (read-only), {@code fail} (an isError result), {@code crash} (the process exits mid-call), {@code wait} (never
 * answers), {@code picture} (an image and a resource link). With the argument {@code broken} it writes a reason to
 * stderr and exits before speaking MCP.
 */
public final class TestMcpServer {
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());

    private TestMcpServer() {}

    /** The command line that runs this server in a new JVM with the test class path. */
    static List<String> commandLine(String... args) {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                // The SDK logs through SLF4J, which has no binding here and says so on stderr: the tests read stderr.
                "-Dslf4j.internal.verbosity=ERROR",
                "-cp",
                System.getProperty("java.class.path"),
                TestMcpServer.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("broken")) {
            System.err.println("test server: no API token in TEST_TOKEN");
            System.exit(2);
        }
        System.err.println("test server: starting");
        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(JSON))
                .serverInfo("test-server", "1.0")
                .jsonMapper(JSON)
                .jsonSchemaValidator(new AcceptingSchemaValidator())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(
                        tool(
                                "echo",
                                "Says the message back.",
                                "{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"}},"
                                        + "\"required\":[\"message\"]}",
                                true,
                                request -> text("Echo: " + request.arguments().get("message"), false)),
                        tool(
                                "fail",
                                "Always fails.",
                                "{\"type\":\"object\"}",
                                false,
                                request -> text("the disk is full", true)),
                        tool("crash", "Exits mid-call.", "{\"type\":\"object\"}", false, request -> {
                            System.err.println("test server: crashing on purpose");
                            System.exit(3);
                            return text("unreachable", false);
                        }),
                        tool("wait", "Never answers.", "{\"type\":\"object\"}", false, request -> {
                            try {
                                new CountDownLatch(1).await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return text("woken", false);
                        }),
                        tool(
                                "picture",
                                "An image and a link.",
                                "{\"type\":\"object\"}",
                                false,
                                request -> McpSchema.CallToolResult.builder()
                                        .content(List.of(
                                                McpSchema.ImageContent.builder("aGVsbG8=", "image/png")
                                                        .build(),
                                                McpSchema.ResourceLink.builder()
                                                        .name("notes")
                                                        .uri("file:///notes.txt")
                                                        .build()))
                                        .structuredContent(Map.of("width", 1))
                                        .build()))
                .build();
        new CountDownLatch(1).await();
        server.close();
    }

    private interface Handler {
        McpSchema.CallToolResult handle(McpSchema.CallToolRequest request);
    }

    private static McpServerFeatures.SyncToolSpecification tool(
            String name, String description, String schema, boolean readOnly, Handler handler) {
        return McpServerFeatures.SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(name, JSON, schema)
                        .description(description)
                        .annotations(new McpSchema.ToolAnnotations(null, readOnly, null, null, null, null))
                        .build())
                .callHandler((exchange, request) -> handler.handle(request))
                .build();
    }

    private static McpSchema.CallToolResult text(String text, boolean error) {
        return McpSchema.CallToolResult.builder()
                .content(List.of(McpSchema.TextContent.builder(text).build()))
                .isError(error)
                .build();
    }
}
