package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.io.IOException;

/** Tool-call arguments between the conversation (raw text, as the model wrote it) and providers that want objects. */
public final class ToolArguments {
    private ToolArguments() {}

    /**
     * The arguments as an object for providers that send them structured (Anthropic, Gemini, Ollama); {@code {}}
     * when they were not a JSON object. The tool's error result already quoted what the model sent, so replaying
     * {@code {}} loses nothing and keeps the request acceptable.
     */
    public static ObjectNode asObject(String arguments) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(arguments);
            return parsed != null && parsed.isObject() ? (ObjectNode) parsed : Json.object();
        } catch (IOException e) {
            return Json.object();
        }
    }
}
