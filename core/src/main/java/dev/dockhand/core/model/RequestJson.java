package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/** What the request writers of several wires build alike. */
public final class RequestJson {
    private RequestJson() {}

    /**
     * The {@code field} array of the last turn when it has this role, else of a new turn: for the APIs that want
     * user and model turns alternating (Anthropic's {@code content}, Gemini's {@code parts}), neighbouring messages
     * of one role go into one turn.
     */
    public static ArrayNode turn(ArrayNode turns, String role, String field) {
        if (!turns.isEmpty()) {
            JsonNode last = turns.get(turns.size() - 1);
            if (last.path("role").asText().equals(role)) {
                return (ArrayNode) last.get(field);
            }
        }
        return turns.addObject().put("role", role).putArray(field);
    }

    /** Tools as chat-completions functions, {@code {"type":"function","function":{name,description,parameters}}}. */
    public static ArrayNode functions(List<ToolDeclaration> declarations) {
        ArrayNode tools = Json.MAPPER.createArrayNode();
        for (ToolDeclaration tool : declarations) {
            ObjectNode function = tools.addObject().put("type", "function").putObject("function");
            function.put("name", tool.name());
            function.put("description", tool.description());
            function.set("parameters", tool.parameters());
        }
        return tools;
    }

    /**
     * The reply's state when {@code wire} made it, as JSON. Empty for another wire's state, or none, and for state
     * that cannot be read (a damaged session file): the reply then goes back as another provider's would.
     */
    public static Optional<JsonNode> state(Message.Assistant assistant, String wire) {
        if (!assistant.state().from(wire)) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(Json.read(assistant.state().json()));
        } catch (UncheckedIOException damaged) {
            return Optional.empty();
        }
    }

    /**
     * {@link #state} when it also names {@code model} as the one that wrote the reply: reasoning and signatures go
     * back only to the model that made them.
     */
    public static Optional<JsonNode> stateOf(Message.Assistant assistant, String wire, String model) {
        return state(assistant, wire).filter(json -> json.path("model").asText().equals(model));
    }
}
