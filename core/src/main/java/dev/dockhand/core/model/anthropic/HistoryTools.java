package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ToolDeclaration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The tools a request's history calls, for a request that offers none. The Messages API refuses {@code tool_use} and
 * {@code tool_result} blocks in a request without {@code tools} ("Requests which include `tool_use` or `tool_result`
 * blocks must define tools.", anthropics/anthropic-sdk-python#494), which a session whose tools are all excluded, or
 * whose project's {@code tools.core} shares none with the user's, would otherwise send after its first tool round or
 * on {@code --resume}. Each name the history's {@code tool_use} blocks carry is declared once, in their order: as
 * Dockhand knows the tool when it does ({@code withheld}), else with a line saying it is gone and an open object
 * schema. The writer sends them with {@code tool_choice: {"type":"none"}}, which thinking allows.
 */
final class HistoryTools {
    /** The description of a tool the history calls that Dockhand no longer knows (an MCP server's that stopped). */
    static final String GONE = "A tool this conversation called earlier; it is not available now.";

    private HistoryTools() {}

    /** The declarations for the {@code tool_use} names of {@code messages}, the request's turns as written. */
    static List<ToolDeclaration> of(ArrayNode messages, List<ToolDeclaration> withheld) {
        Set<String> names = new LinkedHashSet<>();
        for (JsonNode turn : messages) {
            for (JsonNode block : turn.path("content")) {
                if (block.path("type").asText().equals("tool_use")) {
                    names.add(block.path("name").asText());
                }
            }
        }
        List<ToolDeclaration> declared = new ArrayList<>();
        for (String name : names) {
            declared.add(withheld.stream()
                    .filter(tool -> tool.name().equals(name))
                    .findFirst()
                    .orElseGet(
                            () -> new ToolDeclaration(name, GONE, Json.object().put("type", "object"))));
        }
        return declared;
    }
}
