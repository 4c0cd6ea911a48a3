package dev.dockhand.core.model.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a Responses API event stream into a {@link ModelReply}. The reply is a list of output items, each announced by
 * {@code response.output_item.added} and finished by {@code response.output_item.done}, and filled in between by
 * deltas naming its {@code output_index}: a message's text, a function call's arguments, a reasoning item's summary.
 * The finished items are authoritative (xAI sends a whole call in {@code added} and no deltas at all). The stream ends
 * with {@code response.completed} or {@code response.incomplete}, which carry the usage, or fails with
 * {@code response.failed} or an {@code error} event. The event type is read from the data, so streams with and
 * without {@code event:} lines read alike.
 */
final class ResponsesStreamReader implements ReplyAssembler {
    private final ModelClient.StreamListener listener;
    private final ProviderEndpoint endpoint;
    /** The model asked: its encrypted reasoning can be read back by it alone. */
    private final String model;

    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    /** The reply's output items by output_index: the order the model produced them in. */
    private final TreeMap<Integer, Item> items = new TreeMap<>();

    private final Map<String, Integer> indexById = new HashMap<>();

    private String lastSummaryPart;
    private FinishReason finishReason;
    private TokenUsage usage;

    ResponsesStreamReader(ModelClient.StreamListener listener, ProviderEndpoint endpoint, String model) {
        this.listener = listener;
        this.endpoint = endpoint;
        this.model = model;
    }

    @Override
    public void accept(String data) throws ProviderException {
        JsonNode event = endpoint.parseEvent(data);
        String type = event.path("type").asText();
        switch (type) {
            case "response.output_item.added" -> item(event).update(event.path("item"), false);
            case "response.output_item.done" -> item(event).update(event.path("item"), true);
            case "response.output_text.delta", "response.refusal.delta" -> text(
                    item(event), event.path("delta").asText(""));
            case "response.function_call_arguments.delta" -> item(event)
                    .arguments
                    .append(event.path("delta").asText(""));
            case "response.function_call_arguments.done" -> {
                Item item = item(event);
                item.arguments.setLength(0);
                item.arguments.append(event.path("arguments").asText(""));
            }
            case "response.reasoning_summary_text.delta" -> reasoning(
                    event.path("output_index").asText() + "/"
                            + event.path("summary_index").asText(),
                    event.path("delta").asText(""));
            case "response.reasoning_text.delta" -> reasoning(
                    event.path("output_index").asText() + "/r"
                            + event.path("content_index").asText(),
                    event.path("delta").asText(""));
            case "response.completed", "response.incomplete" -> finish(type, event.path("response"));
            case "response.failed" -> throw HttpErrors.inStream(endpoint, failure(event.path("response")), 0);
            case "error" -> throw HttpErrors.inStream(endpoint, event, 0);
            default -> {
                // Lifecycle events (created, in_progress, content_part.*, *.done of text) add nothing to the reply.
            }
        }
    }

    /**
     * The item an event is about: by its output_index, or, from a server that leaves the index out, by the item's id;
     * an event naming neither opens an item of its own.
     */
    private Item item(JsonNode event) {
        int index;
        if (event.hasNonNull("output_index")) {
            index = event.get("output_index").asInt();
        } else {
            String id = event.hasNonNull("item_id")
                    ? event.get("item_id").asText()
                    : event.path("item").path("id").asText(null);
            Integer known = id == null ? null : indexById.get(id);
            index = known != null ? known : items.isEmpty() ? 0 : items.lastKey() + 1;
        }
        String id = event.path("item").path("id").asText(null);
        if (id != null) {
            indexById.putIfAbsent(id, index);
        }
        return items.computeIfAbsent(index, i -> new Item());
    }

    /** A piece of a message's text; a refusal is the model's answer too, shown as its text. */
    private void text(Item item, String delta) {
        if (delta.isEmpty()) {
            return;
        }
        item.text.append(delta);
        text.append(delta);
        listener.onTextDelta(delta);
    }

    /** A piece of a reasoning summary; the parts of a summary, and summaries of several items, are paragraphs. */
    private void reasoning(String part, String delta) {
        if (delta.isEmpty()) {
            return;
        }
        if (lastSummaryPart != null && !lastSummaryPart.equals(part) && reasoning.length() > 0) {
            reasoning.append("\n\n");
            listener.onReasoningDelta("\n\n");
        }
        lastSummaryPart = part;
        reasoning.append(delta);
        listener.onReasoningDelta(delta);
    }

    /**
     * A completed response stopped, for its calls if it made any; an incomplete one names why in {@code
     * incomplete_details}.
     */
    private static FinishReason finishReason(String type, JsonNode response, boolean calls) {
        if (type.equals("response.completed")) {
            return calls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
        }
        return switch (response.path("incomplete_details").path("reason").asText()) {
            case "max_output_tokens" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    /** The failed response's error object, as an error body so the provider's message is quoted. */
    private static JsonNode failure(JsonNode response) {
        ObjectNode body = Json.object();
        JsonNode error = response.path("error");
        if (error.isObject()) {
            body.set("error", error);
        } else {
            body.put("message", "the response failed");
        }
        return body;
    }

    private void finish(String type, JsonNode response) {
        JsonNode node = response.path("usage");
        if (node.isObject()) {
            usage = new TokenUsage(
                    node.path("input_tokens").asLong(),
                    node.path("output_tokens").asLong(),
                    node.path("input_tokens_details").path("cached_tokens").asLong(),
                    node.path("input_tokens_details").path("cache_write_tokens").asLong(),
                    node.path("output_tokens_details").path("reasoning_tokens").asLong());
        }
        boolean calls = items.values().stream().anyMatch(item -> item.type.equals("function_call"));
        finishReason = finishReason(type, response, calls);
    }

    @Override
    public boolean complete() {
        return finishReason != null;
    }

    @Override
    public ModelReply reply(boolean cancelled) {
        List<ToolCall> calls = new ArrayList<>();
        ArrayNode recorded = Json.MAPPER.createArrayNode();
        boolean worthKeeping = false;
        for (Item item : items.values()) {
            switch (item.type) {
                case "function_call" -> {
                    ToolCall call = new ToolCall(
                            StreamedCalls.id(item.callId, calls),
                            StreamedCalls.name(item.name),
                            item.arguments.toString());
                    calls.add(call);
                    recorded.addObject().put("type", "function_call").put("call_id", call.id());
                }
                case "message" -> {
                    ObjectNode message =
                            recorded.addObject().put("type", "message").put("text", item.text.toString());
                    if (item.phase != null) {
                        message.put("phase", item.phase);
                        worthKeeping = true;
                    }
                }
                case "reasoning" -> {
                    // Only a finished item with its encrypted content can go back: with store:false the API refuses
                    // a reasoning item it would have to look up by id.
                    if (item.done != null && item.done.path("encrypted_content").isTextual()) {
                        recorded.add(item.done);
                        worthKeeping = true;
                    }
                }
                default -> {
                    // Other items (built-in tools Dockhand does not offer) have nothing to replay.
                }
            }
        }
        ProviderState state = worthKeeping
                ? new ProviderState(
                        ResponsesRequestWriter.WIRE,
                        Json.write(Json.object().put("model", model).set("items", recorded)))
                : ProviderState.NONE;
        return new ModelReply(
                text.toString(),
                calls,
                FinishReason.of(cancelled, finishReason),
                Optional.ofNullable(usage),
                reasoning.toString(),
                state);
    }

    /** One output item as the stream built it so far. */
    private final class Item {
        String type = "";
        String callId;
        String name;
        String phase;
        final StringBuilder arguments = new StringBuilder();
        final StringBuilder text = new StringBuilder();
        /** The item as output_item.done gave it. */
        JsonNode done;

        void update(JsonNode item, boolean finished) {
            if (item.hasNonNull("type")) {
                type = item.get("type").asText();
            }
            if (item.hasNonNull("call_id")) {
                callId = item.get("call_id").asText();
            }
            if (item.hasNonNull("name")) {
                name = item.get("name").asText();
            }
            if (item.hasNonNull("phase")) {
                phase = item.get("phase").asText();
            }
            String whole = item.path("arguments").asText("");
            if (type.equals("function_call") && !whole.isEmpty() && (finished || arguments.length() == 0)) {
                arguments.setLength(0);
                arguments.append(whole);
            }
            if (finished) {
                done = item;
                if (type.equals("message") && text.length() == 0) {
                    // A server that sends the message whole, without deltas.
                    for (JsonNode part : item.path("content")) {
                        if (part.path("type").asText().equals("output_text")) {
                            ResponsesStreamReader.this.text(
                                    this, part.path("text").asText(""));
                        }
                    }
                }
            }
        }
    }
}
