package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.testing.AnthropicPromptCache;
import dev.dockhand.core.testing.ScriptedModel;
import java.nio.file.Path;
import java.util.List;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What prompt caching saves over a long session: a scripted Messages API that caches the way Anthropic documents it
 * ({@link AnthropicPromptCache}) reports its usage in each stream, and the usage the agent loop sums up is billed as
 * Anthropic bills it (uncached input at the full price, cache reads at a tenth, cache writes at 1.25 times).
 */
class AnthropicPromptCachingTest {
    private static final int ROUNDS = 20;

    @TempDir
    Path workspace;

    /** A system prompt of about 3,000 tokens, Dockhand's own being of that order with the tool declarations. */
    private static String systemPrompt() {
        StringBuilder prompt = new StringBuilder("You are a coding agent working in the user's repository.\n");
        for (int rule = 1; prompt.length() < 12_000; rule++) {
            prompt.append("Rule ")
                    .append(rule)
                    .append(": read the code before changing it, keep each change small, run the tests that cover"
                            + " it, and say what you changed and why in one short paragraph.\n");
        }
        return prompt.toString();
    }

    /** The file round {@code round} reads: longer each round, as files get when an agent digs deeper. */
    private static String file(JsonNode arguments) {
        int round = Integer.parseInt(arguments.path("path").asText().replaceAll("\\D", ""));
        StringBuilder text = new StringBuilder();
        for (int line = 0; text.length() < 2_000 + 400 * round; line++) {
            text.append("    int value")
                    .append(line)
                    .append(" = compute(")
                    .append(line)
                    .append(");\n");
        }
        return text.toString();
    }

    private static MockResponse reply(ObjectNode usage, String block, String delta, String stopReason) {
        ObjectNode start = Json.object().put("type", "message_start");
        ObjectNode message = start.putObject("message")
                .put("id", "msg_scripted")
                .put("type", "message")
                .put("role", "assistant")
                .put("model", "test-model");
        message.putArray("content");
        message.set("usage", usage.deepCopy().put("output_tokens", 1));
        String stream = "event: message_start\ndata: " + Json.write(start) + "\n\n"
                + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                + block + "}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":" + delta
                + "}\n\n"
                + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason
                + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":25}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        return AnthropicLoops.sse(stream);
    }

    private static MockResponse readCall(int round, ObjectNode usage) {
        String block =
                "{\"type\":\"tool_use\",\"id\":\"toolu_round" + round + "\",\"name\":\"read_file\",\"input\":{}}";
        String arguments = Json.write(Json.object().put("path", "src/main/java/Part" + round + ".java"));
        String delta = Json.write(Json.object().put("type", "input_json_delta").put("partial_json", arguments));
        return reply(usage, block, delta, "tool_use");
    }

    private static MockResponse answer(ObjectNode usage) {
        return reply(
                usage,
                "{\"type\":\"text\",\"text\":\"\"}",
                "{\"type\":\"text_delta\",\"text\":\"All parts read.\"}",
                "end_turn");
    }

    /** The usage of a 20-round session, with or without cache breakpoints. */
    private TokenUsage session(boolean caching) throws Exception {
        try (ScriptedModel server = new ScriptedModel()) {
            AnthropicPromptCache cache = new AnthropicPromptCache(1024);
            for (int round = 1; round <= ROUNDS; round++) {
                int number = round;
                server.reply(request -> readCall(number, cache.usage(request)));
            }
            server.reply(request -> answer(cache.usage(request)));
            AgentLoop loop = AnthropicLoops.loop(
                    server,
                    workspace,
                    caching,
                    ROUNDS + 1,
                    systemPrompt(),
                    List.of(new AnthropicLoops.Answering("read_file", AnthropicPromptCachingTest::file)));

            TurnResult result = loop.run("Read the parts one by one.", new Cancellation());

            assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
            assertEquals(ROUNDS + 1, result.requests());
            return result.usage();
        }
    }

    private static double billedInput(TokenUsage usage) {
        return usage.uncachedInputTokens() + 0.1 * usage.cachedInputTokens() + 1.25 * usage.cacheWriteTokens();
    }

    @Test
    void aTwentyRoundSessionIsBilledAtMostAQuarterOfItsUncachedInput() throws Exception {
        TokenUsage cached = session(true);
        TokenUsage uncached = session(false);

        // The same prompts, counted whole either way: a cached prompt does not look small.
        assertEquals(uncached.inputTokens(), cached.inputTokens());
        assertEquals(0, uncached.cachedInputTokens() + uncached.cacheWriteTokens());
        assertTrue(
                billedInput(cached) <= billedInput(uncached) / 4,
                "billed " + billedInput(cached) + " of " + billedInput(uncached) + " uncached: " + cached);
    }
}
