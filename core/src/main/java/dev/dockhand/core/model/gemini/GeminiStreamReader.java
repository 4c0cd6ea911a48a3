package dev.dockhand.core.model.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.HttpErrors;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ReplyAssembler;
import dev.dockhand.core.model.StreamedCalls;
import dev.dockhand.core.model.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code GenerateContentResponse} chunks. Function calls come whole and without ids; each gets a fresh id that
 * stays with it in the conversation, so its result can be matched (and a placeholder name when it came without one).
 */
final class GeminiStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    private final StringBuilder text = new StringBuilder();
    private final List<ToolCall> calls = new ArrayList<>();
    private FinishReason finishReason;
    private TokenUsage usage;

    GeminiStreamReader(ModelClient.StreamListener listener, ProviderEndpoint endpoint) {
        this.listener = listener;
        this.endpoint = endpoint;
    }

    @Override
    public void accept(String data) throws ProviderException {
        JsonNode chunk = endpoint.parseEvent(data);
        if (chunk.has("error")) {
            throw HttpErrors.inStream(
                    endpoint, chunk, chunk.path("error").path("code").asInt(0));
        }
        if (chunk.path("promptFeedback").has("blockReason")) {
            finishReason = FinishReason.CONTENT_FILTER;
        }
        JsonNode candidate = chunk.path("candidates").path(0);
        for (JsonNode part : candidate.path("content").path("parts")) {
            if (part.has("functionCall")) {
                JsonNode call = part.get("functionCall");
                String arguments = call.has("args") ? Json.write(call.get("args")) : "{}";
                calls.add(new ToolCall(
                        ToolCall.freshId(), StreamedCalls.name(call.path("name").asText("")), arguments));
            } else if (part.hasNonNull("text") && !part.path("thought").asBoolean(false)) {
                String piece = part.get("text").asText();
                if (!piece.isEmpty()) {
                    text.append(piece);
                    listener.onTextDelta(piece);
                }
            }
        }
        if (candidate.hasNonNull("finishReason")) {
            finishReason = finishReason(candidate.get("finishReason").asText());
        }
        JsonNode metadata = chunk.path("usageMetadata");
        if (metadata.isObject()) {
            usage = new TokenUsage(
                    metadata.path("promptTokenCount").asLong(),
                    metadata.path("candidatesTokenCount").asLong());
        }
    }

    private FinishReason finishReason(String reason) {
        return switch (reason) {
            case "STOP" -> calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
            case "MAX_TOKENS" -> FinishReason.LENGTH;
            case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY" -> FinishReason
                    .CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    @Override
    public boolean complete() {
        return finishReason != null;
    }

    @Override
    public ModelReply reply(boolean cancelled) {
        FinishReason reason = FinishReason.of(cancelled, finishReason);
        return new ModelReply(text.toString(), calls, reason, Optional.ofNullable(usage));
    }
}
