package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The replies the scripted model streamed on the Messages API, block by block, so a later request can be checked
 * against them as Anthropic checks it: the thinking blocks of the latest assistant message must be those of the reply
 * that made them, unmodified and each in its place ("messages.3.content.11: `thinking` or `redacted_thinking` blocks
 * in the latest assistant message cannot be modified. These blocks must remain as they were in the original
 * response.", anthropics/claude-code#63203; reordered interleaved thinking, BerriAI/litellm#23093,
 * UKGovernmentBEIS/inspect_ai#4922). A message whose thinking no served reply made (a test's own signatures) is not
 * checked here.
 */
final class AnthropicServedReplies {
    private final List<List<JsonNode>> replies = new CopyOnWriteArrayList<>();

    /** Keeps the content blocks of a served Messages stream that has any thinking. */
    void record(String sse) {
        List<JsonNode> content = content(sse);
        if (content.stream().anyMatch(AnthropicServedReplies::isThinking)) {
            replies.add(content);
        }
    }

    /**
     * The content blocks a Messages stream makes, in index order: text with its text, thinking with its text and
     * signature, redacted thinking with its data, tool_use with its id and name.
     */
    static List<JsonNode> content(String sse) {
        TreeMap<Integer, ObjectNode> blocks = new TreeMap<>();
        for (String line : sse.split("\n")) {
            if (!line.startsWith("data:")) {
                continue;
            }
            JsonNode event;
            try {
                event = Json.read(line.substring("data:".length()).trim());
            } catch (UncheckedIOException notJson) {
                continue;
            }
            int index = event.path("index").asInt();
            switch (event.path("type").asText()) {
                case "content_block_start" -> blocks.put(
                        index, event.path("content_block").deepCopy());
                case "content_block_delta" -> {
                    ObjectNode block = blocks.get(index);
                    JsonNode delta = event.path("delta");
                    switch (delta.path("type").asText()) {
                        case "text_delta" -> append(block, "text", delta.path("text"));
                        case "thinking_delta" -> append(block, "thinking", delta.path("thinking"));
                        case "signature_delta" -> append(block, "signature", delta.path("signature"));
                        default -> {
                            // Tool input is not what this check compares.
                        }
                    }
                }
                default -> {
                    // Message events carry no content.
                }
            }
        }
        return new ArrayList<>(blocks.values());
    }

    private static void append(ObjectNode block, String field, JsonNode piece) {
        if (block != null) {
            block.put(field, block.path(field).asText("") + piece.asText(""));
        }
    }

    /** A thinking block (only the fields the API checks) and its index in its message's content. */
    private record Placed(int place, JsonNode block) {}

    /** Checks the request's latest assistant message against the served reply its thinking came from. */
    void check(JsonNode body, WireProblems problems) {
        JsonNode messages = body.path("messages");
        int latest = messages.size() - 1;
        while (latest >= 0 && !messages.get(latest).path("role").asText().equals("assistant")) {
            latest--;
        }
        if (latest < 0) {
            return;
        }
        List<JsonNode> content = new ArrayList<>();
        messages.get(latest).path("content").forEach(content::add);
        List<Placed> sent = thinking(content);
        if (sent.isEmpty()) {
            return;
        }
        for (List<JsonNode> reply : replies) {
            List<Placed> made = thinking(reply);
            if (made.stream()
                    .noneMatch(placed -> placed.block().equals(sent.get(0).block()))) {
                continue;
            }
            int same = 0;
            while (same < Math.min(made.size(), sent.size()) && made.get(same).equals(sent.get(same))) {
                same++;
            }
            int at = same < sent.size()
                    ? sent.get(same).place()
                    : made.get(Math.min(same, made.size() - 1)).place();
            problems.require(
                    made.equals(sent),
                    "messages." + latest + ".content." + at + ": `thinking` or `redacted_thinking` blocks in the latest"
                            + " assistant message cannot be modified. These blocks must remain as they were in the"
                            + " original response.");
            return;
        }
    }

    /** The thinking blocks of a message's content with their places. */
    private static List<Placed> thinking(List<JsonNode> content) {
        List<Placed> placed = new ArrayList<>();
        for (int b = 0; b < content.size(); b++) {
            JsonNode block = content.get(b);
            if (!isThinking(block)) {
                continue;
            }
            ObjectNode kept = Json.object().put("type", block.path("type").asText());
            if (block.path("type").asText().equals("redacted_thinking")) {
                kept.put("data", block.path("data").asText());
            } else {
                kept.put("thinking", block.path("thinking").asText())
                        .put("signature", block.path("signature").asText());
            }
            placed.add(new Placed(b, kept));
        }
        return placed;
    }

    private static boolean isThinking(JsonNode block) {
        String type = block.path("type").asText();
        return type.equals("thinking") || type.equals("redacted_thinking");
    }
}
