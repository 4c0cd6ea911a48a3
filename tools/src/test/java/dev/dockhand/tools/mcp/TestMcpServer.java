package dev.dockhand.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real MCP server over stdio, built with the same SDK, run as its own process by the tests. Its tools: {@code echo}
 * (read-only), {@code fail} (an isError result), {@code crash} (the process exits mid-call), {@code wait} (reports
 * progress once, then never answers), {@code picture} (an image and a resource link), {@code add-tool} (adds a tool
 * {@code late} and says the list changed), {@code cancelled} (the calls the client cancelled with {@code
 * notifications/cancelled}, and why). With the argument {@code broken} it writes a reason to stderr and exits before
 * speaking MCP; with {@code gate FILE} it starts only once FILE exists; with {@code flood BYTES} it first writes one
 * stderr line of that many bytes.
 */
public final class TestMcpServer {
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());
    /** A real 1×1 PNG: an image whose bytes are not PNG is described, not returned. */
    static final String PNG =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

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

    /** The tool name of each call the client sent, by request id. */
    private static final Map<Object, String> CALLS = new ConcurrentHashMap<>();

    /** Each cancelled call as "tool (reason)", in the order the notifications came. */
    private static final List<String> CANCELLED = new CopyOnWriteArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("broken")) {
            System.err.println("test server: no API token in TEST_TOKEN");
            System.exit(2);
        }
        if (args.length > 1 && args[0].equals("gate")) {
            // The test decides when this server may start; until then it stays silent, as a slow server would.
            while (!Files.exists(Path.of(args[1]))) {
                Thread.sleep(20);
            }
        }
        if (args.length > 1 && args[0].equals("flood")) {
            // One stderr line of that many bytes before anything else: a client that keeps whole lines holds it all.
            byte[] chunk = new byte[1 << 16];
            java.util.Arrays.fill(chunk, (byte) 'x');
            java.io.OutputStream err = new java.io.FileOutputStream(java.io.FileDescriptor.err);
            for (long left = Long.parseLong(args[1]); left > 0; left -= chunk.length) {
                err.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
            err.write('\n');
            err.flush();
        }
        System.err.println("test server: starting");
        AtomicReference<McpSyncServer> self = new AtomicReference<>();
        McpSyncServer server = McpServer.sync(
                        new StdioServerTransportProvider(JSON, new Watched(System.in), System.out))
                .serverInfo("test-server", "1.0")
                .jsonMapper(JSON)
                .jsonSchemaValidator(new AcceptingSchemaValidator())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(tools(self))
                .build();
        self.set(server);
        new CountDownLatch(1).await();
        server.close();
    }

    /** The server's tools; {@code add-tool} adds one to {@code self}, the running server. */
    private static List<McpServerFeatures.SyncToolSpecification> tools(AtomicReference<McpSyncServer> self) {
        return List.of(
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
                tool("wait", "Never answers.", "{\"type\":\"object\"}", false, (exchange, request) -> {
                    exchange.progressNotification(
                            new McpSchema.ProgressNotification(request.progressToken(), 0.0, null, "waiting", null));
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
                                        McpSchema.ImageContent.builder(PNG, "image/png")
                                                .build(),
                                        McpSchema.ResourceLink.builder()
                                                .name("notes")
                                                .uri("file:///notes.txt")
                                                .build()))
                                .structuredContent(Map.of("width", 1))
                                .build()),
                tool("add-tool", "Adds the tool late.", "{\"type\":\"object\"}", false, request -> {
                    self.get()
                            .addTool(tool(
                                    "late",
                                    "Came later.",
                                    "{\"type\":\"object\"}",
                                    false,
                                    late -> text("late", false)));
                    self.get().notifyToolsListChanged();
                    return text("added", false);
                }),
                tool(
                        "cancelled",
                        "The cancelled calls.",
                        "{\"type\":\"object\"}",
                        false,
                        request -> text("cancelled: " + CANCELLED, false)));
    }

    private interface Handler {
        McpSchema.CallToolResult handle(McpSchema.CallToolRequest request);
    }

    private interface ExchangeHandler {
        McpSchema.CallToolResult handle(McpSyncServerExchange exchange, McpSchema.CallToolRequest request);
    }

    private static McpServerFeatures.SyncToolSpecification tool(
            String name, String description, String schema, boolean readOnly, Handler handler) {
        return tool(name, description, schema, readOnly, (exchange, request) -> handler.handle(request));
    }

    private static McpServerFeatures.SyncToolSpecification tool(
            String name, String description, String schema, boolean readOnly, ExchangeHandler handler) {
        return McpServerFeatures.SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(name, JSON, schema)
                        .description(description)
                        .annotations(new McpSchema.ToolAnnotations(null, readOnly, null, null, null, null))
                        .build())
                .callHandler(handler::handle)
                .build();
    }

    /**
     * The server's stdin, read through: each line the client sends is noted when it is a tools/call (its id and tool)
     * or a notifications/cancelled (which call, and why), before the SDK reads it.
     */
    private static final class Watched extends FilterInputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Watched(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                seen(new byte[] {(byte) b}, 0, 1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                seen(buffer, offset, n);
            }
            return n;
        }

        private void seen(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                if (bytes[i] == '\n') {
                    note(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(bytes[i]);
                }
            }
        }

        private static void note(String text) {
            try {
                JsonNode message = new ObjectMapper().readTree(text);
                String method = message.path("method").asText();
                if (method.equals("tools/call")) {
                    CALLS.put(
                            message.get("id").asText(),
                            message.path("params").path("name").asText());
                } else if (method.equals("notifications/cancelled")) {
                    JsonNode params = message.path("params");
                    CANCELLED.add(CALLS.get(params.path("requestId").asText()) + " ("
                            + params.path("reason").asText() + ")");
                }
            } catch (IOException e) {
                // Not JSON: the SDK will say so.
            }
        }
    }

    private static McpSchema.CallToolResult text(String text, boolean error) {
        return McpSchema.CallToolResult.builder()
                .content(List.of(McpSchema.TextContent.builder(text).build()))
                .isError(error)
                .build();
    }
}
