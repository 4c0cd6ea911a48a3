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
 * Parts marked {@code thought: true} are the model's reasoning summary, streamed as reasoning and never as answer
 * text. Every {@code thoughtSignature} is kept, with the part it came on, in the reply's state (see {@link
 * ReplayedParts}).
 */
final class GeminiStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final ReplayedParts replay;
    private final List<ToolCall> calls = new ArrayList<>();
    private FinishReason finishReason;
    private TokenUsage usage;

    GeminiStreamReader(String model, ModelClient.StreamListener listener, ProviderEndpoint endpoint) {
        this.listener = listener;
        this.endpoint = endpoint;
        this.replay = new ReplayedParts(model);
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
            String signature = part.path("thoughtSignature").asText("");
            if (part.has("functionCall")) {
                JsonNode call = part.get("functionCall");
                String arguments = call.has("args") ? Json.write(call.get("args")) : "{}";
                replay.call(calls.size(), signature);
                calls.add(new ToolCall(
                        ToolCall.freshId(), StreamedCalls.name(call.path("name").asText("")), arguments));
            } else if (part.path("thought").asBoolean(false)) {
                String piece = part.path("text").asText("");
                replay.thought(piece, signature);
                if (!piece.isEmpty()) {
                    reasoning.append(piece);
                    listener.onReasoningDelta(piece);
                }
            } else if (part.hasNonNull("text")) {
                String piece = part.get("text").asText();
                replay.text(piece, signature);
                if (!piece.isEmpty()) {
                    text.append(piece);
                    listener.onTextDelta(piece);
                }
            }
        }
        if (candidate.hasNonNull("finishReason")) {
            finishReason = finishReason(candidate.get("finishReason").asText(), !calls.isEmpty());
        }
        JsonNode metadata = chunk.path("usageMetadata");
        if (metadata.isObject()) {
            usage = usage(metadata);
        }
    }

    /**
     * Each chunk repeats the usage so far; the last one counts. {@code promptTokenCount} already includes the
     * cached tokens ({@code cachedContentTokenCount} is the part of it read from the cache), and the thinking tokens
     * ({@code thoughtsTokenCount}) are billed as output but not counted in {@code candidatesTokenCount}.
     */
    private static TokenUsage usage(JsonNode metadata) {
        long thoughts = metadata.path("thoughtsTokenCount").asLong();
        return new TokenUsage(
                metadata.path("promptTokenCount").asLong(),
                metadata.path("candidatesTokenCount").asLong() + thoughts,
                metadata.path("cachedContentTokenCount").asLong(),
                0,
                thoughts);
    }

    /** Gemini says STOP for a reply that made calls too. */
    private static FinishReason finishReason(String reason, boolean calls) {
        return switch (reason) {
            case "STOP" -> calls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
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
        return new ModelReply(
                text.toString(), calls, reason, Optional.ofNullable(usage), reasoning.toString(), replay.state());
    }
}
