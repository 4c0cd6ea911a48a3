package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rule the real APIs enforce with a 400: every tool_call in an assistant message is answered by exactly one
 * tool message, in the calls' order, immediately after it and before anything else; no tool message answers
 * anything else. Every test that plays the model checks every request with this.
 */
public final class WireAssertions {
    private WireAssertions() {}

    public static void assertValidConversation(JsonNode requestBody) {
        JsonNode messages = requestBody.path("messages");
        assertTrue(messages.isArray() && messages.size() > 0, "request has no messages: " + requestBody);
        Set<String> seenIds = new HashSet<>();
        int i = 0;
        while (i < messages.size()) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            if (role.equals("tool")) {
                fail("tool message at " + i + " answers no preceding tool call: " + message);
            }
            i++;
            if (!role.equals("assistant") || !message.has("tool_calls")) {
                continue;
            }
            List<String> expected = new ArrayList<>();
            for (JsonNode call : message.get("tool_calls")) {
                String id = call.path("id").asText();
                assertTrue(!id.isEmpty(), "tool call without id: " + call);
                assertTrue(seenIds.add(id), "tool call id used twice in the conversation: " + id);
                assertEquals("function", call.path("type").asText(), "tool call type");
                assertTrue(call.path("function").path("arguments").isTextual(), "arguments must be a string");
                expected.add(id);
            }
            List<String> answered = new ArrayList<>();
            while (i < messages.size() && messages.get(i).path("role").asText().equals("tool")) {
                answered.add(messages.get(i).path("tool_call_id").asText());
                assertTrue(messages.get(i).path("content").isTextual(), "tool content must be text");
                i++;
            }
            assertEquals(expected, answered, "tool results must answer each call once, in order, right after it");
        }
    }
}
