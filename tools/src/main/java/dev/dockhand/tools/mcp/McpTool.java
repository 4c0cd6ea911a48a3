package dev.dockhand.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * One tool of an MCP server, offered to the model as {@code mcp__<server>__<tool>} with the server's own input schema.
 * It asks like a command (EXECUTE): an MCP tool may do anything its server can; only a trusted server's tools that
 * say they are read-only ({@code readOnlyHint}) run as READ.
 */
final class McpTool implements Tool<JsonNode> {
    private final String name;
    private final McpServerConnection server;
    private final McpSchema.Tool tool;
    private final ObjectNode schema;

    McpTool(String name, McpServerConnection server, McpSchema.Tool tool) {
        this.name = name;
        this.server = server;
        this.tool = tool;
        this.schema = schemaOf(tool);
    }

    /** The server's schema as given; an object schema is required by every provider, so a missing one is {}. */
    private static ObjectNode schemaOf(McpSchema.Tool tool) {
        JsonNode given = tool.inputSchema() == null ? null : Json.MAPPER.valueToTree(tool.inputSchema());
        ObjectNode schema = given instanceof ObjectNode object ? object : Json.object();
        if (!schema.has("type")) {
            schema.put("type", "object");
        }
        return schema;
    }

    @Override
    public String name() {
        return name;
    }

    /** The server's tool name as the server knows it. */
    String serverToolName() {
        return tool.name();
    }

    /** The tool as its server listed it. */
    McpSchema.Tool definition() {
        return tool;
    }

    McpServerConnection server() {
        return server;
    }

    /** The server's own description of the tool, or "". */
    String serverDescription() {
        return tool.description() == null ? "" : tool.description();
    }

    @Override
    public String description() {
        String description = tool.description() == null ? "" : tool.description();
        return description + (description.isEmpty() ? "" : " ") + "(Tool '" + tool.name() + "' of the MCP server '"
                + server.spec().name() + "'.)";
    }

    @Override
    public ObjectNode parameterSchema() {
        return schema.deepCopy();
    }

    @Override
    public ToolKind kind() {
        boolean readOnly = tool.annotations() != null
                && Boolean.TRUE.equals(tool.annotations().readOnlyHint());
        return server.spec().trust() && readOnly ? ToolKind.READ : ToolKind.EXECUTE;
    }

    /** "Allow every tool of this server" covers all of its tools, those it adds later too. */
    @Override
    public java.util.Optional<String> approvalGroup() {
        return java.util.Optional.of("mcp server " + server.spec().name());
    }

    /** Whether the server may take two calls at once is not known; calls of one round run one after the other. */
    @Override
    public boolean concurrencySafe() {
        return false;
    }

    @Override
    public Class<JsonNode> paramsType() {
        return JsonNode.class;
    }

    @Override
    public String summarize(JsonNode params) {
        String text = params.toString();
        return text.length() > 80 ? Utf16.head(text, 79) + "…" : text;
    }

    @Override
    @SuppressWarnings("unchecked")
    public ToolResult execute(JsonNode params, ToolContext context) throws InterruptedException {
        Map<String, Object> arguments = Json.MAPPER.convertValue(params, Map.class);
        ToolResult result;
        try {
            server.syncIn();
        } catch (McpServerConnection.McpCallException e) {
            return ToolResult.error(ToolErrorType.EXECUTION_FAILED, e.getMessage());
        }
        try {
            result = McpResults.toResult(server.call(tool.name(), arguments, context.cancellation(), context.output()));
        } catch (McpServerConnection.McpCallException e) {
            result = ToolResult.error(
                    context.cancellation().isCancelled() ? ToolErrorType.CANCELLED : ToolErrorType.EXECUTION_FAILED,
                    e.getMessage());
        }
        // Also after a failed or cancelled call: the server may have written before it stopped.
        return withNotices(result, server.syncBack());
    }

    /** The copy back's sentences after the result's own text, for the model and the display. */
    private static ToolResult withNotices(ToolResult result, List<String> notices) {
        if (notices.isEmpty()) {
            return result;
        }
        String said = String.join("\n", notices);
        return result.withText(
                result.llmContent() + (result.llmContent().isEmpty() ? "" : "\n") + said,
                result.display() + (result.display().isEmpty() ? "" : "\n") + said,
                result.error());
    }
}
