package dev.dockhand.core.model;

/**
 * Tokens one request consumed, counted as the provider bills them. {@code inputTokens} is the whole prompt: uncached
 * tokens plus those written to and read from the provider's prompt cache, so a cached prompt cannot look small (the
 * context-size estimate that triggers compression reads it). {@code cachedInputTokens} and {@code cacheWriteTokens}
 * are the parts of it read from and written to the cache. {@code outputTokens} includes {@code reasoningTokens}, which
 * are billed as output everywhere.
 */
public record TokenUsage(
        long inputTokens, long outputTokens, long cachedInputTokens, long cacheWriteTokens, long reasoningTokens) {

    public static final TokenUsage ZERO = new TokenUsage(0, 0);

    /** Usage without cache or reasoning figures. */
    public TokenUsage(long inputTokens, long outputTokens) {
        this(inputTokens, outputTokens, 0, 0, 0);
    }

    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(
                inputTokens + other.inputTokens,
                outputTokens + other.outputTokens,
                cachedInputTokens + other.cachedInputTokens,
                cacheWriteTokens + other.cacheWriteTokens,
                reasoningTokens + other.reasoningTokens);
    }

    /** Input tokens billed at the full price: neither read from nor written to the cache. */
    public long uncachedInputTokens() {
        return Math.max(0, inputTokens - cachedInputTokens - cacheWriteTokens);
    }
}
