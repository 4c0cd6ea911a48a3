package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.TokenUsage;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;

/**
 * Reads chat-completion chunks from one SSE stream into a {@link ModelReply}. Failures are recorded, not thrown,
 * because the SSE reader calls back from inside its own loop; {@link #finish} turns them into exceptions.
 */
final class OpenAiStreamReader extends EventSourceListener {
    private static final long POLL_MILLIS = 100;
    private static final long CANCEL_GRACE_MILLIS = 2000;

    private final ModelClient.StreamListener listener;
    private final StringBuilder text = new StringBuilder();
    private final ToolCallAssembler toolCalls = new ToolCallAssembler();
    private FinishReason finishReason;
    private TokenUsage usage;
    private boolean done;
    private final HttpUrl endpoint;
    private final String apiKey;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile ProviderException failure;
    private volatile Throwable streamFailure;

    OpenAiStreamReader(ModelClient.StreamListener listener, HttpUrl endpoint, String apiKey) {
        this.listener = listener;
        this.endpoint = endpoint;
        this.apiKey = apiKey;
    }

    /**
     * Blocks until the stream closed or failed. After a cancel, okhttp-sse reports a failure at once; if it ever
     * did not, the wait still ends after a grace period instead of hanging the turn.
     */
    void awaitEnd(Cancellation cancel) throws InterruptedException {
        while (!ended.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            if (cancel.isCancelled()) {
                ended.await(CANCEL_GRACE_MILLIS, TimeUnit.MILLISECONDS);
                return;
            }
        }
    }

    @Override
    public void onEvent(EventSource eventSource, String id, String type, String data) {
        if (failure != null) {
            return;
        }
        if (data.strip().equals("[DONE]")) {
            done = true;
            return;
        }
        try {
            chunk(Json.MAPPER.readTree(data));
        } catch (IOException e) {
            failure = new ProviderException(
                    ProviderException.Kind.PROTOCOL, "The provider sent a stream event that is not JSON: " + data, e);
            eventSource.cancel();
        }
    }

    private void chunk(JsonNode chunk) {
        JsonNode error = chunk.get("error");
        if (error != null && !error.isNull()) {
            failure = new ProviderException(
                    ProviderException.Kind.SERVER,
                    200,
                    "The provider reported an error mid-stream: " + OpenAiErrors.messageOf(chunk),
                    null,
                    null);
            return;
        }
        JsonNode usageNode = chunk.get("usage");
        if (usageNode != null && usageNode.isObject()) {
            usage = new TokenUsage(
                    usageNode.path("prompt_tokens").asLong(),
                    usageNode.path("completion_tokens").asLong());
        }
        for (JsonNode choice : chunk.path("choices")) {
            JsonNode delta = choice.path("delta");
            JsonNode content = delta.get("content");
            if (content != null && content.isTextual() && !content.asText().isEmpty()) {
                text.append(content.asText());
                listener.onTextDelta(content.asText());
            }
            for (JsonNode fragment : delta.path("tool_calls")) {
                toolCalls.accept(fragment);
            }
            JsonNode reason = choice.get("finish_reason");
            if (reason != null && reason.isTextual()) {
                finishReason = finishReason(reason.asText());
            }
        }
    }

    private static FinishReason finishReason(String reason) {
        return switch (reason) {
            case "stop" -> FinishReason.STOP;
            case "tool_calls", "function_call" -> FinishReason.TOOL_CALLS;
            case "length" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    @Override
    public void onClosed(EventSource eventSource) {
        ended.countDown();
    }

    @Override
    public void onFailure(EventSource eventSource, Throwable t, Response response) {
        try {
            if (response != null && !response.isSuccessful()) {
                // The body can only be read here, inside the callback, before okhttp-sse closes the response.
                failure = OpenAiErrors.fromResponse(response, endpoint, apiKey);
            } else {
                streamFailure = t == null ? new IOException("stream failed") : t;
            }
        } finally {
            ended.countDown();
        }
    }

    /** The whole reply, or the failure as an exception. Call after {@link #awaitEnd}. */
    ModelReply finish(boolean cancelled) throws ProviderException {
        if (cancelled) {
            return new ModelReply(
                    text.toString(), toolCalls.calls(), FinishReason.CANCELLED, Optional.ofNullable(usage));
        }
        if (failure != null) {
            throw failure;
        }
        if (streamFailure != null) {
            if (streamFailure instanceof IOException io) {
                throw OpenAiErrors.network(endpoint, io, apiKey);
            }
            throw new ProviderException(
                    ProviderException.Kind.PROTOCOL,
                    "The provider at " + endpoint.host() + " did not send a reply stream: "
                            + streamFailure.getMessage(),
                    streamFailure);
        }
        if (!done && finishReason == null) {
            throw new ProviderException(
                    ProviderException.Kind.NETWORK,
                    "The reply stream from " + endpoint.host() + " ended before the reply was complete.",
                    null);
        }
        FinishReason reason = finishReason == null ? FinishReason.OTHER : finishReason;
        return new ModelReply(text.toString(), toolCalls.calls(), reason, Optional.ofNullable(usage));
    }
}
