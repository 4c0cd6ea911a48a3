package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import org.junit.jupiter.api.Test;

class AnthropicPromptCacheTest {
    /** A user block of 400 characters as the cache reads it ("user:" and the block): 100 tokens. */
    private static final String HUNDRED_TOKENS = "x".repeat(400 - "user:{\"type\":\"text\",\"text\":\"\"}".length());

    private static JsonNode request(String marks, int turns) {
        StringBuilder messages = new StringBuilder();
        for (int turn = 0; turn < turns; turn++) {
            String role = turn % 2 == 0 ? "user" : "assistant";
            String mark = marks.contains(Integer.toString(turn)) ? ",\"cache_control\":{\"type\":\"ephemeral\"}" : "";
            messages.append(turn == 0 ? "" : ",")
                    .append("{\"role\":\"")
                    .append(role)
                    .append("\",\"content\":[{\"type\":\"text\",\"text\":\"")
                    .append(role.equals("user") ? HUNDRED_TOKENS : HUNDRED_TOKENS.substring(5))
                    .append("\"")
                    .append(mark)
                    .append("}]}");
        }
        return Json.read("{\"model\":\"m\",\"messages\":[" + messages + "]}");
    }

    /** The usage as its JSON text: the cache counts in longs, a parsed literal in ints. */
    private static String usage(AnthropicPromptCache cache, JsonNode request) {
        return Json.write(cache.usage(request));
    }

    @Test
    void writesAMarkedPrefixThenReadsItWhenALaterRequestMarksTheSamePlace() {
        AnthropicPromptCache cache = new AnthropicPromptCache(200);

        String first = usage(cache, request("2", 3));
        String second = usage(cache, request("24", 5));

        // Before the messages, "model:m" and "thinking:null": 20 characters. Each turn is 400.
        long prefix = (20 + 3 * 400) / 4;
        assertEquals(
                "{\"input_tokens\":0,\"cache_creation_input_tokens\":" + prefix + ",\"cache_read_input_tokens\":0}",
                first);
        long whole = (20 + 5 * 400) / 4;
        assertEquals(
                "{\"input_tokens\":0,\"cache_creation_input_tokens\":" + (whole - prefix)
                        + ",\"cache_read_input_tokens\":" + prefix + "}",
                second);
    }

    @Test
    void aPrefixBelowTheMinimumIsNotCachedAndAnUnmarkedPromptIsAllInput() {
        AnthropicPromptCache cache = new AnthropicPromptCache(1024);

        assertEquals(
                "{\"input_tokens\":305,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0}",
                usage(cache, request("2", 3)));
        assertEquals(
                "{\"input_tokens\":305,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0}",
                usage(cache, request("", 3)));
    }
}
