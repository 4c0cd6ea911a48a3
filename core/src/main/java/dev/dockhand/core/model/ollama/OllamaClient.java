package dev.dockhand.core.model.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.HttpErrors;
import dev.dockhand.core.model.ImageBudget;
import dev.dockhand.core.model.ImageInput;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ProviderStreams;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.ReplyAssembler;
import dev.dockhand.core.model.RequestJson;
import dev.dockhand.core.model.StreamedCalls;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.model.ToolArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * A streaming client for a local Ollama's {@code POST {baseUrl}/api/chat}. Thinking models stream their reasoning in
 * {@code message.thinking}, beside {@code content}; it is shown as reasoning and goes back as {@code thinking} on the
 * assistant message, where Ollama renders it into the model's template (gpt-oss needs its analysis before a tool call
 * it made). It goes back only to the model that wrote it: the state ({@link #WIRE}, {@code {"model":…}}) says which.
 */
public final class OllamaClient implements ModelClient {
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";
    static final String WIRE = "ollama";

    private final ProviderEndpoint endpoint;
    private final ProviderStreams streams;

    public OllamaClient(String baseUrl, Timeouts timeouts) {
        HttpUrl base = ProviderEndpoint.parseBaseUrl(baseUrl, DEFAULT_BASE_URL);
        this.endpoint = new ProviderEndpoint(
                "Ollama", base.newBuilder().addPathSegments("api/chat").build(), "");
        this.streams = new ProviderStreams(timeouts, endpoint.url());
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        return streams.post(
                endpoint,
                Json.writeBytes(write(request)),
                ProviderStreams.Framing.NDJSON,
                new Reader(listener, endpoint, request.model()),
                cancel);
    }

    static ObjectNode write(ModelRequest request) {
        ObjectNode body = Json.object().put("model", request.model()).put("stream", true);
        request.reasoningEffort().ifPresent(effort -> think(body, request.model(), effort));
        ArrayNode messages = body.putArray("messages");
        ImageBudget budget =
                ImageBudget.plan(request.messages(), ImageInput.ollama(request.model()), ImageBudget.OLLAMA);
        for (Message message : request.messages()) {
            if (message instanceof Message.System system) {
                messages.addObject().put("role", "system").put("content", system.text());
            } else if (message instanceof Message.User user) {
                messages.addObject().put("role", "user").put("content", user.text());
            } else if (message instanceof Message.Assistant assistant) {
                ObjectNode node = messages.addObject().put("role", "assistant").put("content", assistant.text());
                if (!assistant.reasoning().isEmpty()
                        && RequestJson.stateOf(assistant, WIRE, request.model()).isPresent()) {
                    node.put("thinking", assistant.reasoning());
                }
                if (assistant.hasToolCalls()) {
                    ArrayNode calls = node.putArray("tool_calls");
                    for (ToolCall call : assistant.toolCalls()) {
                        ObjectNode function =
                                calls.addObject().putObject("function").put("name", call.name());
                        function.set("arguments", ToolArguments.asObject(call.arguments()));
                    }
                }
            } else if (message instanceof Message.ToolResult result) {
                // Ollama takes images on any message, a tool's included, as plain base64 in `images`; a model
                // without vision refuses them ("missing data required for image input").
                ImageInput.Split split = budget.split(result);
                ObjectNode node = messages.addObject()
                        .put("role", "tool")
                        .put("tool_name", result.toolName())
                        .put("content", split.text());
                if (split.sends()) {
                    ArrayNode images = node.putArray("images");
                    split.sent().forEach(image -> images.add(image.data()));
                }
            }
        }
        if (!request.tools().isEmpty()) {
            body.set("tools", RequestJson.functions(request.tools()));
        }
        return body;
    }

    /**
     * {@code think} takes true/false on most thinking models; gpt-oss ignores booleans and takes its own levels,
     * "low", "medium" or "high" (Ollama's thinking documentation). Without an effort nothing is sent and the model
     * thinks as it does by default.
     */
    private static void think(ObjectNode body, String model, ReasoningEffort effort) {
        String name = model.toLowerCase(Locale.ROOT);
        if (name.startsWith("gpt-oss")) {
            body.put("think", effort.cliName());
        } else if (THINKS.matcher(name).matches()) {
            body.put("think", true);
        }
        // Any other model answers `think` with 400 "does not support thinking": it gets nothing.
    }

    /** The model families Ollama lists as thinking models (its "thinking" tag), besides gpt-oss. */
    static final java.util.regex.Pattern THINKS = java.util.regex.Pattern.compile(
            "(.*/)?(qwen3.*|deepseek-r1.*|deepseek-v3\\.[1-9].*|magistral.*|qwq.*|cogito.*|phi4-reasoning.*|exaone-deep.*)");

    /** One NDJSON line per chunk; the last says {@code done: true} with the reason and the token counts. */
    private static final class Reader implements ReplyAssembler {
        private final StreamListener listener;
        private final ProviderEndpoint endpoint;
        private final String model;
        private final StringBuilder text = new StringBuilder();
        private final StringBuilder thinking = new StringBuilder();
        private final List<ToolCall> calls = new ArrayList<>();
        private FinishReason finishReason;
        private TokenUsage usage;

        Reader(StreamListener listener, ProviderEndpoint endpoint, String model) {
            this.listener = listener;
            this.endpoint = endpoint;
            this.model = model;
        }

        @Override
        public void accept(String line) throws ProviderException {
            JsonNode chunk = endpoint.parseEvent(line);
            if (chunk.has("error")) {
                throw HttpErrors.inStream(endpoint, chunk, 0);
            }
            JsonNode message = chunk.path("message");
            String thought = message.path("thinking").asText("");
            if (!thought.isEmpty()) {
                thinking.append(thought);
                listener.onReasoningDelta(thought);
            }
            String piece = message.path("content").asText("");
            if (!piece.isEmpty()) {
                text.append(piece);
                listener.onTextDelta(piece);
            }
            // Calls come whole, in order; newer servers give each an id (kept, so results can name it) and a
            // function.index that only repeats its position.
            for (JsonNode call : message.path("tool_calls")) {
                JsonNode function = call.path("function");
                calls.add(new ToolCall(
                        StreamedCalls.id(call.path("id").asText(""), calls),
                        StreamedCalls.name(function.path("name").asText("")),
                        function.has("arguments") ? Json.write(function.get("arguments")) : "{}"));
            }
            if (chunk.path("done").asBoolean(false)) {
                finishReason = finishReason(chunk.path("done_reason").asText("stop"), !calls.isEmpty());
                // prompt_eval_count is the prompt and eval_count all generated tokens, thinking included; Ollama
                // counts neither cache hits nor thinking apart.
                usage = new TokenUsage(
                        chunk.path("prompt_eval_count").asLong(),
                        chunk.path("eval_count").asLong());
            }
        }

        /** Ollama says only stop or length; a reply with calls stopped for them. */
        private static FinishReason finishReason(String reason, boolean calls) {
            if (reason.equals("length")) {
                return FinishReason.LENGTH;
            }
            return calls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
        }

        @Override
        public boolean complete() {
            return finishReason != null;
        }

        @Override
        public ModelReply reply(boolean cancelled) {
            FinishReason reason = FinishReason.of(cancelled, finishReason);
            ProviderState state = thinking.length() == 0
                    ? ProviderState.NONE
                    : new ProviderState(WIRE, Json.write(Json.object().put("model", model)));
            return new ModelReply(
                    text.toString(), calls, reason, Optional.ofNullable(usage), thinking.toString(), state);
        }
    }
}
