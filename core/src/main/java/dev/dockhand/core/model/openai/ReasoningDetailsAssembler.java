package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Rebuilds OpenRouter's {@code reasoning_details} array from its streamed pieces. Each delta carries one or more
 * typed objects ({@code reasoning.text}, {@code reasoning.summary}, {@code reasoning.encrypted}); consecutive pieces of
 * one block share its {@code type} and {@code index}, their strings continue one another, and fields such as a
 * {@code signature} come once, on whichever piece. The merged blocks must go back exactly as the model produced them:
 * OpenRouter forwards them to the model's provider, which checks signatures and encrypted data.
 */
final class ReasoningDetailsAssembler {
    /** The fields whose pieces are continued rather than replaced. */
    private static final Set<String> STREAMED = Set.of("text", "summary", "data");

    private final ArrayNode details = Json.MAPPER.createArrayNode();

    /** Feeds one element of a delta's {@code reasoning_details}; returns the visible reasoning text it adds. */
    String accept(JsonNode piece) {
        if (!piece.isObject()) {
            return "";
        }
        ObjectNode last = details.isEmpty() ? null : (ObjectNode) details.get(details.size() - 1);
        if (last != null && continues(last, piece)) {
            merge(last, piece);
        } else {
            details.add(piece.deepCopy());
        }
        return visibleText(piece);
    }

    private static boolean continues(ObjectNode block, JsonNode piece) {
        return Objects.equals(block.path("type").asText(), piece.path("type").asText())
                && Objects.equals(block.get("index"), piece.get("index"));
    }

    private static void merge(ObjectNode block, JsonNode piece) {
        for (Map.Entry<String, JsonNode> field : piece.properties()) {
            String name = field.getKey();
            JsonNode value = field.getValue();
            JsonNode current = block.get(name);
            if (STREAMED.contains(name) && value.isTextual() && current != null && current.isTextual()) {
                block.put(name, current.asText() + value.asText());
            } else if (!value.isNull() || current == null) {
                block.set(name, value);
            }
        }
    }

    /** Text and summaries are shown as reasoning; encrypted data is not text. */
    private static String visibleText(JsonNode piece) {
        return switch (piece.path("type").asText()) {
            case "reasoning.text" -> piece.path("text").asText("");
            case "reasoning.summary" -> piece.path("summary").asText("");
            default -> "";
        };
    }

    ArrayNode details() {
        return details;
    }
}
