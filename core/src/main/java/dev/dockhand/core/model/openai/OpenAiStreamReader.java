package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.HttpErrors;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ReplyAssembler;
import dev.dockhand.core.model.TokenUsage;
import java.util.Optional;

/** Reads chat-completion chunks into a {@link ModelReply}: text deltas, tool-call fragments, finish reason, usage. */
final class OpenAiStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    private final StringBuilder text = new StringBuilder();
    private final ToolCallAssembler toolCalls = new ToolCallAssembler();
    private FinishReason finishReason;
    private TokenUsage usage;
    private boolean done;

    OpenAiStreamReader(ModelClient.StreamListener listener, ProviderEndpoint endpoint) {
        this.listener = listener;
        this.endpoint = endpoint;
    }

    @Override
    public void accept(String data) throws ProviderException {
        if (data.strip().equals("[DONE]")) {
            done = true;
            return;
        }
        JsonNode chunk = endpoint.parseEvent(data);
        JsonNode error = chunk.get("error");
        if (error != null && !error.isNull()) {
            throw HttpErrors.inStream(endpoint, chunk, 0);
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
    public boolean complete() {
        return done || finishReason != null;
    }

    @Override
    public ModelReply reply(boolean cancelled) {
        FinishReason reason = FinishReason.of(cancelled, finishReason);
        return new ModelReply(text.toString(), toolCalls.calls(), reason, Optional.ofNullable(usage));
    }
}
