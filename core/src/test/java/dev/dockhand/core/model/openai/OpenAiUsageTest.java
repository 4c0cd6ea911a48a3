package dev.dockhand.core.model.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import dev.dockhand.core.model.TokenUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How each server's usage object becomes {@link TokenUsage}: the whole prompt as input, its cached part, and the
 * reasoning counted once inside output whether or not the server's completion_tokens holds it.
 */
class OpenAiUsageTest {
    private static TokenUsage usage(String json) {
        return OpenAiStreamReader.usage(Json.read(json));
    }

    @Test
    void readsTheCachedPartFromCachedTokensOrFromDeepSeeksOwnCacheHitCount() {
        assertEquals(
                List.of(new TokenUsage(339, 83, 320, 0, 39), new TokenUsage(339, 83, 320, 0, 0)),
                List.of(
                        usage("{\"prompt_tokens\":339,\"completion_tokens\":83,\"total_tokens\":422,"
                                + "\"prompt_tokens_details\":{\"cached_tokens\":320},"
                                + "\"completion_tokens_details\":{\"reasoning_tokens\":39},"
                                + "\"prompt_cache_hit_tokens\":320,\"prompt_cache_miss_tokens\":19}"),
                        // DeepSeek before it added prompt_tokens_details.
                        usage("{\"prompt_tokens\":339,\"completion_tokens\":83,\"total_tokens\":422,"
                                + "\"prompt_cache_hit_tokens\":320,\"prompt_cache_miss_tokens\":19}")));
    }

    @Test
    void addsReasoningToOutputOnlyWhereTheTotalShowsCompletionTokensLeftItOut() {
        assertEquals(
                List.of(new TokenUsage(307, 253, 306, 0, 227), new TokenUsage(304, 49, 0, 0, 23)),
                List.of(
                        // xAI: total = prompt + completion + reasoning.
                        usage("{\"prompt_tokens\":307,\"completion_tokens\":26,\"total_tokens\":560,"
                                + "\"prompt_tokens_details\":{\"cached_tokens\":306},"
                                + "\"completion_tokens_details\":{\"reasoning_tokens\":227}}"),
                        // Groq and OpenAI: total = prompt + completion, reasoning inside completion.
                        usage("{\"prompt_tokens\":304,\"completion_tokens\":49,\"total_tokens\":353,"
                                + "\"completion_tokens_details\":{\"reasoning_tokens\":23}}")));
    }
}
