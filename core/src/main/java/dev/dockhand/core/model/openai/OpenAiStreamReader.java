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

/**
 * Reads chat-completion chunks into a {@link ModelReply}: text deltas, reasoning deltas, tool-call fragments, finish
 * reason, usage. Reasoning arrives in {@code reasoning_content}, {@code reasoning} or {@code reasoning_details} (see
 * {@link OpenAiReasoning}); it is streamed to {@link ModelClient.StreamListener#onReasoningDelta} and never joins the
 * answer text.
 */
final class OpenAiStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    private final String model;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final ToolCallAssembler toolCalls = new ToolCallAssembler();
    private final ReasoningDetailsAssembler details = new ReasoningDetailsAssembler();
    /** The plain field the reasoning came in, once one has come (even empty, as DeepSeek opens with). */
    private String reasoningField;

    private FinishReason finishReason;
    private TokenUsage usage;
    private boolean done;

    OpenAiStreamReader(ModelClient.StreamListener listener, ProviderEndpoint endpoint, String model) {
        this.listener = listener;
        this.endpoint = endpoint;
        this.model = model;
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
            usage = usage(usageNode);
        }
        for (JsonNode choice : chunk.path("choices")) {
            JsonNode delta = choice.path("delta");
            reasoning(delta);
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

    /**
     * One delta's reasoning. OpenRouter sends the same text twice, in {@code reasoning} and in
     * {@code reasoning_details}, so the details give text only when no plain field came with them.
     */
    private void reasoning(JsonNode delta) {
        String piece = "";
        for (String field : new String[] {OpenAiReasoning.REASONING_CONTENT, OpenAiReasoning.REASONING}) {
            JsonNode value = delta.get(field);
            if (value != null && value.isTextual()) {
                if (reasoningField == null) {
                    reasoningField = field;
                }
                piece = value.asText();
                break;
            }
        }
        StringBuilder fromDetails = new StringBuilder();
        for (JsonNode detail : delta.path(OpenAiReasoning.DETAILS)) {
            fromDetails.append(details.accept(detail));
        }
        if (piece.isEmpty()) {
            piece = fromDetails.toString();
        }
        if (!piece.isEmpty()) {
            reasoning.append(piece);
            listener.onReasoningDelta(piece);
        }
    }

    /**
     * {@code prompt_tokens} is the whole prompt; the part read from the cache is {@code prompt_tokens_details
     * .cached_tokens} (OpenAI, xAI, DeepSeek) or DeepSeek's own {@code prompt_cache_hit_tokens}. OpenAI, DeepSeek and
     * Groq count reasoning inside {@code completion_tokens}; xAI leaves it out (grok-3-mini: completion 26, reasoning
     * 227, total 560 = 307 + 26 + 227), which shows in a total that adds the reasoning on top. Reasoning is counted
     * once as output either way.
     */
    static TokenUsage usage(JsonNode usage) {
        long prompt = usage.path("prompt_tokens").asLong();
        long completion = usage.path("completion_tokens").asLong();
        long reasoning =
                usage.path("completion_tokens_details").path("reasoning_tokens").asLong();
        JsonNode cachedTokens = usage.path("prompt_tokens_details").get("cached_tokens");
        long cached = cachedTokens != null && cachedTokens.isNumber()
                ? cachedTokens.asLong()
                : usage.path("prompt_cache_hit_tokens").asLong();
        boolean reasoningOutsideCompletion =
                reasoning > 0 && usage.path("total_tokens").asLong(-1) == prompt + completion + reasoning;
        long output = reasoningOutsideCompletion ? completion + reasoning : completion;
        return new TokenUsage(prompt, output, cached, 0, reasoning);
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
        return new ModelReply(
                text.toString(),
                toolCalls.calls(),
                reason,
                Optional.ofNullable(usage),
                reasoning.toString(),
                OpenAiReasoning.state(model, reasoningField, details.details()));
    }
}
