package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ProviderState;
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
 * Reads the Messages stream: {@code content_block_start} opens a text, {@code tool_use}, {@code thinking} or
 * {@code redacted_thinking} block, deltas fill it ({@code text_delta}, {@code input_json_delta}, {@code
 * thinking_delta}, {@code signature_delta}), {@code message_delta} brings the stop reason and the final usage,
 * {@code message_stop} ends it.
 *
 * <p>Thinking text is shown as reasoning. The thinking and redacted-thinking blocks themselves go into the reply's
 * {@link ProviderState} (wire {@value AnthropicRequestWriter#WIRE}) exactly as they came, in their place among the
 * reply's text runs and tool_use blocks: with thinking on the API wants the latest assistant message back as it was,
 * each thinking block unmodified, signatures included, where the reply had it (with interleaved thinking a reply can be
 * thinking, tool_use, thinking, tool_use).
 */
final class AnthropicStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    /** The model asked: a thinking block\'s signature is valid only for the model that wrote it. */
    private final String model;

    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final TreeMap<Integer, Block> toolBlocks = new TreeMap<>();
    private final TreeMap<Integer, Thinking> thinkingBlocks = new TreeMap<>();
    /** The text of each text block, by its index: the runs whose places the state keeps. */
    private final TreeMap<Integer, StringBuilder> textBlocks = new TreeMap<>();

    private final Usage usage = new Usage();
    private FinishReason finishReason;
    private boolean stopped;

    AnthropicStreamReader(ModelClient.StreamListener listener, ProviderEndpoint endpoint, String model) {
        this.listener = listener;
        this.endpoint = endpoint;
        this.model = model;
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

    /** A thinking block being streamed, or a redacted one (whose opaque data comes whole in its start event). */
    private static final class Thinking {
        final boolean redacted;
        final StringBuilder text = new StringBuilder();
        final StringBuilder signature = new StringBuilder();
        final String data;

        Thinking(boolean redacted, String data) {
            this.redacted = redacted;
            this.data = data;
        }
    }

    /**
     * The usage figures as the stream reports them. {@code message_start} carries the input side and a first output
     * count, {@code message_delta} the final output count and, from some servers, the input side again (or only
     * there); Anthropic's counts are cumulative, so the largest figure seen of each is the final one.
     */
    private static final class Usage {
        long input;
        long cacheWrite;
        long cacheRead;
        long output;
        long thinking;
        boolean seen;

        void add(JsonNode usage) {
            input = Math.max(input, count(usage, "input_tokens"));
            cacheWrite = Math.max(cacheWrite, count(usage, "cache_creation_input_tokens"));
            cacheRead = Math.max(cacheRead, count(usage, "cache_read_input_tokens"));
            output = Math.max(output, count(usage, "output_tokens"));
            thinking = Math.max(
                    thinking,
                    usage.path("output_tokens_details").path("thinking_tokens").asLong(0));
        }

        private long count(JsonNode usage, String field) {
            JsonNode value = usage.get(field);
            if (value == null || !value.canConvertToLong()) {
                return 0;
            }
            seen = true;
            return value.asLong();
        }

        /** Billed as Anthropic bills: the prompt is the uncached part plus what was written to and read from cache. */
        Optional<TokenUsage> total() {
            return seen
                    ? Optional.of(
                            new TokenUsage(input + cacheWrite + cacheRead, output, cacheRead, cacheWrite, thinking))
                    : Optional.empty();
        }
    }

    @Override
    public void accept(String data) throws ProviderException {
        JsonNode event = endpoint.parseEvent(data);
        switch (event.path("type").asText()) {
            case "message_start" -> usage.add(event.path("message").path("usage"));
            case "content_block_start" -> start(event.path("index").asInt(), event.path("content_block"));
            case "content_block_delta" -> delta(event.path("index").asInt(), event.path("delta"));
            case "message_delta" -> {
                String reason = event.path("delta").path("stop_reason").asText(null);
                if (reason != null) {
                    finishReason = finishReason(reason);
                }
                usage.add(event.path("usage"));
            }
            case "message_stop" -> stopped = true;
            case "error" -> throw HttpErrors.inStream(endpoint, event, 0);
            default -> {
                // ping, content_block_stop and event types added later carry nothing we need.
            }
        }
    }

    private void start(int index, JsonNode block) {
        switch (block.path("type").asText()) {
            case "tool_use" -> toolBlocks.put(
                    index,
                    new Block(block.path("id").asText(""), block.path("name").asText("")));
            case "text" -> appendText(index, block.path("text").asText(""));
            case "thinking" -> {
                Thinking thinking = new Thinking(false, "");
                thinkingBlocks.put(index, thinking);
                appendThinking(thinking, block.path("thinking").asText(""));
                thinking.signature.append(block.path("signature").asText(""));
            }
            case "redacted_thinking" -> thinkingBlocks.put(
                    index, new Thinking(true, block.path("data").asText("")));
            default -> {
                // Server tool blocks and types added later are not ours to show or replay.
            }
        }
    }

    private void delta(int index, JsonNode delta) {
        switch (delta.path("type").asText()) {
            case "text_delta" -> appendText(index, delta.path("text").asText(""));
            case "input_json_delta" -> {
                Block block = toolBlocks.get(index);
                if (block != null) {
                    block.json.append(delta.path("partial_json").asText(""));
                }
            }
            case "thinking_delta" -> {
                Thinking thinking = thinkingBlocks.get(index);
                if (thinking != null) {
                    appendThinking(thinking, delta.path("thinking").asText(""));
                }
            }
            case "signature_delta" -> {
                Thinking thinking = thinkingBlocks.get(index);
                if (thinking != null) {
                    thinking.signature.append(delta.path("signature").asText(""));
                }
            }
            default -> {
                // citations_delta and types added later: nothing to show or replay.
            }
        }
    }

    private void appendText(int index, String piece) {
        StringBuilder run = textBlocks.computeIfAbsent(index, start -> new StringBuilder());
        if (!piece.isEmpty()) {
            run.append(piece);
            text.append(piece);
            listener.onTextDelta(piece);
        }
    }

    private void appendThinking(Thinking thinking, String piece) {
        if (!piece.isEmpty()) {
            thinking.text.append(piece);
            reasoning.append(piece);
            listener.onReasoningDelta(piece);
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
        return new ModelReply(text.toString(), calls, reason, usage.total(), reasoning.toString(), state());
    }

    /**
     * The reply's blocks to replay, in the order they came: each signed thinking block and each redacted one whole,
     * each text run as {@code {"type":"text","text":…}}, each tool_use as {@code {"type":"tool_use","call":n}}, its
     * place in the reply's tool calls (the call itself, id, name and arguments, is in the conversation). None when
     * the reply has no thinking: then nothing needs its place kept. A thinking block whose signature never arrived
     * (the stream was cut inside it) is left out: the API refuses it unsigned, and a turn that ended there is not a
     * tool loop the API would need it for.
     */
    private ProviderState state() {
        TreeMap<Integer, ObjectNode> inOrder = new TreeMap<>();
        thinkingBlocks.forEach((index, thinking) -> signed(thinking).ifPresent(block -> inOrder.put(index, block)));
        textBlocks.forEach((index, run) ->
                inOrder.put(index, Json.object().put("type", "text").put("text", run.toString())));
        int call = 0;
        for (Integer index : toolBlocks.keySet()) {
            inOrder.put(index, Json.object().put("type", "tool_use").put("call", call++));
        }
        if (inOrder.values().stream().noneMatch(AnthropicRequestWriter::isThinking)) {
            return ProviderState.NONE;
        }
        ObjectNode state = Json.object().put("model", model);
        state.putArray("blocks").addAll(inOrder.values());
        return new ProviderState(AnthropicRequestWriter.WIRE, Json.write(state));
    }

    /** The block to replay for a thinking block: a redacted one with its data, a thinking one only when signed. */
    private static Optional<ObjectNode> signed(Thinking thinking) {
        if (thinking.redacted) {
            return thinking.data.isEmpty()
                    ? Optional.empty()
                    : Optional.of(Json.object().put("type", "redacted_thinking").put("data", thinking.data));
        }
        return thinking.signature.length() == 0
                ? Optional.empty()
                : Optional.of(Json.object()
                        .put("type", "thinking")
                        .put("thinking", thinking.text.toString())
                        .put("signature", thinking.signature.toString()));
    }
}
