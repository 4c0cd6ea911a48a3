package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.TreeMap;

/**
 * Reads the Messages stream: {@code content_block_start} opens a text or {@code tool_use} block, deltas fill it
 * ({@code text_delta}, {@code input_json_delta}), {@code message_delta} brings the stop reason and output tokens,
 * {@code message_stop} ends it. Thinking blocks are passed over.
 */
final class AnthropicStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    private final StringBuilder text = new StringBuilder();
    private final TreeMap<Integer, Block> toolBlocks = new TreeMap<>();
    private FinishReason finishReason;
    private long inputTokens;
    private long outputTokens;
    private boolean sawUsage;
    private boolean stopped;

    AnthropicStreamReader(ModelClient.StreamListener listener, ProviderEndpoint endpoint) {
        this.listener = listener;
        this.endpoint = endpoint;
    }

    /** A tool_use block being streamed. */
    private static final class Block {
        final String id;
        final String name;
        final StringBuilder json = new StringBuilder();

        Block(String id, String name) {
            this.id = id;
            this.name = name;
        }
    }

    @Override
    public void accept(String data) throws ProviderException {
        JsonNode event = endpoint.parseEvent(data);
        switch (event.path("type").asText()) {
            case "message_start" -> usage(event.path("message").path("usage"));
            case "content_block_start" -> start(event.path("index").asInt(), event.path("content_block"));
            case "content_block_delta" -> delta(event.path("index").asInt(), event.path("delta"));
            case "message_delta" -> {
                String reason = event.path("delta").path("stop_reason").asText(null);
                if (reason != null) {
                    finishReason = finishReason(reason);
                }
                usage(event.path("usage"));
            }
            case "message_stop" -> stopped = true;
            case "error" -> throw HttpErrors.inStream(endpoint, event, 0);
            default -> {
                // ping, content_block_stop and event types added later carry nothing we need.
            }
        }
    }

    private void start(int index, JsonNode block) {
        if (block.path("type").asText().equals("tool_use")) {
            toolBlocks.put(
                    index,
                    new Block(block.path("id").asText(""), block.path("name").asText("")));
        } else if (block.path("type").asText().equals("text")
                && !block.path("text").asText().isEmpty()) {
            appendText(block.path("text").asText());
        }
    }

    private void delta(int index, JsonNode delta) {
        switch (delta.path("type").asText()) {
            case "text_delta" -> appendText(delta.path("text").asText());
            case "input_json_delta" -> {
                Block block = toolBlocks.get(index);
                if (block != null) {
                    block.json.append(delta.path("partial_json").asText());
                }
            }
            default -> {
                // thinking_delta, signature_delta: not shown, not replayed.
            }
        }
    }

    private void appendText(String piece) {
        if (!piece.isEmpty()) {
            text.append(piece);
            listener.onTextDelta(piece);
        }
    }

    private void usage(JsonNode usage) {
        if (usage.has("input_tokens")) {
            inputTokens = usage.path("input_tokens").asLong();
            sawUsage = true;
        }
        if (usage.has("output_tokens")) {
            outputTokens = usage.path("output_tokens").asLong();
            sawUsage = true;
        }
    }

    private static FinishReason finishReason(String reason) {
        return switch (reason) {
            case "end_turn", "stop_sequence" -> FinishReason.STOP;
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "max_tokens" -> FinishReason.LENGTH;
            case "refusal" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    @Override
    public boolean complete() {
        return stopped || finishReason != null;
    }

    @Override
    public ModelReply reply(boolean cancelled) {
        List<ToolCall> calls = new ArrayList<>();
        for (Block block : toolBlocks.values()) {
            // A tool that takes no input streams no JSON at all.
            String arguments = block.json.length() == 0 ? "{}" : block.json.toString();
            // A block without a name (or id) is kept: the scheduler tells the model, which can call again.
            calls.add(new ToolCall(StreamedCalls.id(block.id, calls), StreamedCalls.name(block.name), arguments));
        }
        FinishReason reason = FinishReason.of(cancelled, finishReason);
        Optional<TokenUsage> usage =
                sawUsage ? Optional.of(new TokenUsage(inputTokens, outputTokens)) : Optional.empty();
        return new ModelReply(text.toString(), calls, reason, usage);
    }
}
