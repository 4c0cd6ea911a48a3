package dev.dockhand.core.model;

/** Tokens one request consumed, as the provider reported them. */
public record TokenUsage(long inputTokens, long outputTokens) {
    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(inputTokens + other.inputTokens, outputTokens + other.outputTokens);
    }
}
