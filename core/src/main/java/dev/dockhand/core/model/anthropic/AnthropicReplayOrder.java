package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.RequestJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads back what {@link AnthropicStreamReader} kept of a reply in its state: the reply's blocks in stream order,
 * thinking and redacted-thinking blocks whole, text runs, and tool_use blocks by their place among the message's calls
 * ({@code {"type":"tool_use","call":n}}). State saved before the order was kept holds the thinking blocks alone.
 */
final class AnthropicReplayOrder {
    private AnthropicReplayOrder() {}

    /**
     * The blocks of the reply in the order it streamed them, with tool_use blocks as placeholders for the message's
     * calls ({@code {"type":"tool_use","call":n}}). When the state keeps no order (older state, none, another model's or
     * wire's) or an order that no longer fits the message (its text runs do not make its text, or its placeholders are
     * not its calls one by one), the order older state replays in: its thinking blocks, the message's text unless
     * blank, then its calls. An empty text run is left out, and so is a blank one when the message's text is blank:
     * the API refuses those.
     */
    static List<JsonNode> of(Message.Assistant assistant, String model) {
        JsonNode stored = blocks(assistant, model);
        return streamed(assistant, stored).orElseGet(() -> older(assistant, stored));
    }

    private static Optional<List<JsonNode>> streamed(Message.Assistant assistant, JsonNode stored) {
        List<JsonNode> ordered = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int calls = 0;
        boolean order = false;
        for (JsonNode block : stored) {
            switch (block.path("type").asText()) {
                case "thinking", "redacted_thinking" -> ordered.add(block);
                case "text" -> {
                    order = true;
                    String run = block.path("text").asText("");
                    text.append(run);
                    if (!run.isEmpty() && !(run.isBlank() && assistant.text().isBlank())) {
                        ordered.add(block);
                    }
                }
                case "tool_use" -> {
                    order = true;
                    if (block.path("call").asInt(-1) != calls++) {
                        return Optional.empty();
                    }
                    ordered.add(block);
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        boolean fits = text.toString().equals(assistant.text())
                && calls == assistant.toolCalls().size();
        return order && fits ? Optional.of(ordered) : Optional.empty();
    }

    /**
     * The thinking blocks the state holds, as they came, then the text and the calls. No thinking when the state
     * cannot be read, or when another model wrote it: a signature is valid only for its own model ("Invalid
     * `signature` in `thinking` block").
     */
    private static List<JsonNode> older(Message.Assistant assistant, JsonNode stored) {
        List<JsonNode> blocks = new ArrayList<>();
        stored.forEach(block -> {
            if (AnthropicRequestWriter.isThinking(block)) {
                blocks.add(block);
            }
        });
        if (!assistant.text().isBlank()) {
            blocks.add(Json.object().put("type", "text").put("text", assistant.text()));
        }
        for (int i = 0; i < assistant.toolCalls().size(); i++) {
            blocks.add(Json.object().put("type", "tool_use").put("call", i));
        }
        return blocks;
    }

    private static JsonNode blocks(Message.Assistant assistant, String model) {
        return RequestJson.stateOf(assistant, AnthropicRequestWriter.WIRE, model)
                .map(stored -> stored.path("blocks"))
                .filter(JsonNode::isArray)
                .orElse(MissingNode.getInstance());
    }
}
