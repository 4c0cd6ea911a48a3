package dev.dockhand.core.model.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.HttpErrors;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ProviderStreams;
import dev.dockhand.core.model.ReplyAssembler;
import dev.dockhand.core.model.StreamedCalls;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/** A streaming client for a local Ollama's {@code POST {baseUrl}/api/chat}. */
public final class OllamaClient implements ModelClient {
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    private final ProviderEndpoint endpoint;
    private final Timeouts timeouts;
    private final OkHttpClient http;

    public OllamaClient(String baseUrl, Timeouts timeouts) {
        HttpUrl base = ProviderEndpoint.parseBaseUrl(baseUrl, DEFAULT_BASE_URL);
        this.endpoint = new ProviderEndpoint(
                "Ollama", base.newBuilder().addPathSegments("api/chat").build(), "");
        this.timeouts = timeouts;
        this.http = ProviderStreams.httpClient(timeouts, endpoint.url());
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        Request http = new Request.Builder()
                .url(endpoint.url())
                .post(RequestBody.create(Json.write(write(request)), JSON))
                .build();
        return ProviderStreams.ndjson(this.http, http, endpoint, new Reader(listener, endpoint), timeouts, cancel);
    }

    static ObjectNode write(ModelRequest request) {
        ObjectNode body = Json.object().put("model", request.model()).put("stream", true);
        ArrayNode messages = body.putArray("messages");
        for (Message message : request.messages()) {
            if (message instanceof Message.System system) {
                messages.addObject().put("role", "system").put("content", system.text());
            } else if (message instanceof Message.User user) {
                messages.addObject().put("role", "user").put("content", user.text());
            } else if (message instanceof Message.Assistant assistant) {
                ObjectNode node = messages.addObject().put("role", "assistant").put("content", assistant.text());
                if (assistant.hasToolCalls()) {
                    ArrayNode calls = node.putArray("tool_calls");
                    for (ToolCall call : assistant.toolCalls()) {
                        ObjectNode function =
                                calls.addObject().putObject("function").put("name", call.name());
                        function.set("arguments", ToolArguments.asObject(call.arguments()));
                    }
                }
            } else if (message instanceof Message.ToolResult result) {
                messages.addObject()
                        .put("role", "tool")
                        .put("tool_name", result.toolName())
                        .put("content", result.content());
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name()).put("description", tool.description());
                function.set("parameters", tool.parameters());
            }
        }
        return body;
    }

    /** One NDJSON line per chunk; the last says {@code done: true} with the reason and the token counts. */
    private static final class Reader implements ReplyAssembler {
        private final StreamListener listener;
        private final ProviderEndpoint endpoint;
        private final StringBuilder text = new StringBuilder();
        private final List<ToolCall> calls = new ArrayList<>();
        private FinishReason finishReason;
        private TokenUsage usage;

        Reader(StreamListener listener, ProviderEndpoint endpoint) {
            this.listener = listener;
            this.endpoint = endpoint;
        }

        @Override
        public void accept(String line) throws ProviderException {
            JsonNode chunk = endpoint.parseEvent(line);
            if (chunk.has("error")) {
                throw HttpErrors.inStream(endpoint, chunk, 0);
            }
            JsonNode message = chunk.path("message");
            String piece = message.path("content").asText("");
            if (!piece.isEmpty()) {
                text.append(piece);
                listener.onTextDelta(piece);
            }
            for (JsonNode call : message.path("tool_calls")) {
                JsonNode function = call.path("function");
                calls.add(new ToolCall(
                        StreamedCalls.id(call.path("id").asText(""), calls),
                        StreamedCalls.name(function.path("name").asText("")),
                        function.has("arguments") ? Json.write(function.get("arguments")) : "{}"));
            }
            if (chunk.path("done").asBoolean(false)) {
                String reason = chunk.path("done_reason").asText("stop");
                finishReason = reason.equals("length")
                        ? FinishReason.LENGTH
                        : calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
                usage = new TokenUsage(
                        chunk.path("prompt_eval_count").asLong(),
                        chunk.path("eval_count").asLong());
            }
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
}
