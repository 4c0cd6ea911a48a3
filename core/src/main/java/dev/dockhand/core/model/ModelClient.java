package dev.dockhand.core.model;

import dev.dockhand.core.Cancellation;

/** Talks to one model provider. Implementations are thread-safe and hold no conversation state. */
public interface ModelClient {

    /**
     * Sends one request and streams the reply. Text deltas reach {@code listener} as they arrive; the returned reply
     * holds the whole text and every tool call. When {@code cancel} fires, the stream is closed and the reply so far
     * is returned with {@link FinishReason#CANCELLED}.
     *
     * @throws ProviderException when the provider or the network fails; it names the provider's own message
     */
    ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel) throws ProviderException;

    /** Receives the reply's text as it streams, and word of retries and warnings before it does. */
    @FunctionalInterface
    interface StreamListener {
        void onTextDelta(String text);

        /** A piece of the reasoning text the provider shows (DeepSeek's reasoning_content, Anthropic's thinking). */
        default void onReasoningDelta(String text) {}

        /** A failed attempt is about to be retried; nothing of it had reached the user. */
        default void onRetry(RetryNotice notice) {}

        /**
         * Something the user should know about how the provider is asked from now on (a feature it refused, left out
         * for the rest of the session), said once, in a sentence.
         */
        default void onWarning(String message) {}
    }

    /** Attempt {@code attempt} of {@code maxAttempts} failed for {@code reason}; the next starts after {@code delay}. */
    record RetryNotice(int attempt, int maxAttempts, java.time.Duration delay, String reason) {}
}
