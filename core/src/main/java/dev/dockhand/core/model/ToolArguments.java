package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Tool-call arguments between the conversation (raw text, as the model wrote it) and providers that want objects. A
 * string in them that escapes half a character ({@code "\ud83d"} alone) goes back with U+FFFD in its place: written
 * again it would be a lone surrogate, which the APIs refuse, in every later request.
 */
public final class ToolArguments {
    private ToolArguments() {}

    /**
     * The arguments as an object for providers that send them structured (Anthropic, Gemini, Ollama); {@code {}}
     * when they were not a JSON object. The tool's error result already quoted what the model sent, so replaying
     * {@code {}} loses nothing and keeps the request acceptable.
     */
    public static ObjectNode asObject(String arguments) {
        return parseObject(arguments)
                .map(object -> (ObjectNode) wellFormed(object))
                .orElseGet(Json::object);
    }

    /**
     * The arguments as the model wrote them, for providers that send them as text (OpenAI's chat completions and
     * Responses), unless they are not a JSON object: servers that re-parse history (vLLM, llama.cpp templates) reject
     * the whole request over them. As for {@link #asObject}, {@code {}} goes back instead. Arguments that escape half
     * a character go back rewritten, with U+FFFD for it.
     */
    public static String replayable(String arguments) {
        Optional<ObjectNode> parsed = parseObject(arguments);
        if (parsed.isEmpty()) {
            return "{}";
        }
        JsonNode wellFormed = wellFormed(parsed.get());
        return wellFormed == parsed.get() ? arguments : Json.write(wellFormed);
    }

    /** Whether the model's arguments are a JSON object, as every tool's schema requires. */
    public static boolean isObject(String arguments) {
        return parseObject(arguments).isPresent();
    }

    private static Optional<ObjectNode> parseObject(String arguments) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(arguments);
            return parsed != null && parsed.isObject() ? Optional.of((ObjectNode) parsed) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** {@code node} with its strings and names made well-formed at any depth; the node itself when they all are. */
    private static JsonNode wellFormed(JsonNode node) {
        if (node.isTextual()) {
            String text = node.textValue();
            String fixed = Utf16.wellFormed(text);
            return fixed.equals(text) ? node : TextNode.valueOf(fixed);
        }
        if (node.isObject()) {
            ObjectNode copy = Json.object();
            boolean changed = false;
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                JsonNode value = wellFormed(field.getValue());
                String name = Utf16.wellFormed(field.getKey());
                changed |= value != field.getValue() || !name.equals(field.getKey());
                copy.set(name, value);
            }
            return changed ? copy : node;
        }
        if (node.isArray()) {
            ArrayNode copy = Json.MAPPER.createArrayNode();
            boolean changed = false;
            for (JsonNode element : node) {
                JsonNode value = wellFormed(element);
                changed |= value != element;
                copy.add(value);
            }
            return changed ? copy : node;
        }
        return node;
    }
}
