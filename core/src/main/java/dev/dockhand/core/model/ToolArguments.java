package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.util.Optional;

/** Tool-call arguments between the conversation (raw text, as the model wrote it) and providers that want objects. */
public final class ToolArguments {
    private ToolArguments() {}

    /**
     * The arguments as an object for providers that send them structured (Anthropic, Gemini, Ollama); {@code {}}
     * when they were not a JSON object. The tool's error result already quoted what the model sent, so replaying
     * {@code {}} loses nothing and keeps the request acceptable.
     */
    public static ObjectNode asObject(String arguments) {
        return parseObject(arguments).orElseGet(Json::object);
    }

    /**
     * The arguments as the model wrote them, for providers that send them as text (OpenAI's chat completions and
     * Responses), unless they are not a JSON object: servers that re-parse history (vLLM, llama.cpp templates) reject
     * the whole request over them. As for {@link #asObject}, {@code {}} goes back instead.
     */
    public static String replayable(String arguments) {
        return isObject(arguments) ? arguments : "{}";
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
}
