package dev.dockhand.tools.mcp;

import dev.dockhand.core.Json;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * An MCP tool result as the text the model reads: text parts as they are, structured content as JSON (when no text
 * part carries it already), images and audio described by type and size (Dockhand's tool results are text), embedded
 * resources by their text or a description, resource links by name and URI. {@code isError} makes it an error
 * result. The scheduler then cuts it to the output budget like any tool's output, keeping the whole on disk.
 */
final class McpResults {
    private McpResults() {}

    static ToolResult toResult(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            parts.add(describe(content));
        }
        if (result.structuredContent() != null) {
            String json = Json.MAPPER.valueToTree(result.structuredContent()).toString();
            if (!parts.contains(json)) {
                parts.add(json);
            }
        }
        String text = parts.isEmpty() ? "(the tool returned nothing)" : String.join("\n", parts);
        if (Boolean.TRUE.equals(result.isError())) {
            return ToolResult.error(ToolErrorType.EXECUTION_FAILED, text);
        }
        String first = text.lines().findFirst().orElse("");
        return ToolResult.success(text, first.length() > 100 ? first.substring(0, 99) + "…" : first);
    }

    private static String describe(McpSchema.Content content) {
        if (content instanceof McpSchema.TextContent text) {
            return text.text();
        }
        if (content instanceof McpSchema.ImageContent image) {
            return "[image " + image.mimeType() + ", " + decodedSize(image.data()) + " bytes, not shown]";
        }
        if (content instanceof McpSchema.AudioContent audio) {
            return "[audio " + audio.mimeType() + ", " + decodedSize(audio.data()) + " bytes, not shown]";
        }
        if (content instanceof McpSchema.EmbeddedResource embedded) {
            if (embedded.resource() instanceof McpSchema.TextResourceContents text) {
                return "[resource " + text.uri() + "]\n" + text.text();
            }
            return "[resource " + embedded.resource().uri() + ", "
                    + embedded.resource().mimeType() + ", binary, not shown]";
        }
        if (content instanceof McpSchema.ResourceLink link) {
            return "[resource link " + link.name() + ": " + link.uri()
                    + (link.description() == null ? "" : " — " + link.description()) + "]";
        }
        return "[" + content.type() + " content, not shown]";
    }

    private static long decodedSize(String base64) {
        if (base64 == null) {
            return 0;
        }
        try {
            return Base64.getDecoder().decode(base64).length;
        } catch (IllegalArgumentException e) {
            return base64.length();
        }
    }
}
