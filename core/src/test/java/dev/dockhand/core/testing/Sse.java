package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.ArrayList;
import java.util.List;
import okhttp3.mockwebserver.MockResponse;

/**
 * Writes model replies in the OpenAI chat-completions streaming format, one reply per {@link MockResponse}:
 * {@code Sse.reply(text("Hi"), toolCall("c1", "read_file", "{\"path\":\"a\"}"), done())}. Tool call arguments are
 * streamed in small fragments, as real servers do, so every test exercises reassembly.
 */
public final class Sse {
    private static final int FRAGMENT = 7;

    private Sse() {}

    /** One piece of a scripted reply: it appends its chunks to the stream. */
    @FunctionalInterface
    public interface Part {
        void write(Stream stream);
    }

    /** The chunks of one reply being written; tool calls get consecutive indexes. */
    public static final class Stream {
        private final List<String> events = new ArrayList<>();
        private int nextIndex;

        public void data(String data) {
            events.add("data: " + data + "\n\n");
        }

        public void raw(String text) {
            events.add(text);
        }

        int takeIndex() {
            return nextIndex++;
        }
    }

    public static MockResponse reply(Part... parts) {
        Stream stream = new Stream();
        for (Part part : parts) {
            part.write(stream);
        }
        return new MockResponse()
                .setHeader("Content-Type", "text/event-stream")
                .setBody(String.join("", stream.events));
    }

    /** Assistant text, streamed in two deltas when long enough. */
    public static Part text(String text) {
        return stream -> {
            int half = text.length() / 2;
            if (half > 0) {
                stream.data(Json.write(delta(content(text.substring(0, half)))));
                stream.data(Json.write(delta(content(text.substring(half)))));
            } else {
                stream.data(Json.write(delta(content(text))));
            }
        };
    }

    /** A whole tool call: id and name first, then the arguments in fragments. */
    public static Part toolCall(String id, String name, String arguments) {
        return stream -> {
            int index = stream.takeIndex();
            stream.data(Json.write(delta(toolDelta(index, id, name, ""))));
            for (int i = 0; i < arguments.length(); i += FRAGMENT) {
                String piece = arguments.substring(i, Math.min(arguments.length(), i + FRAGMENT));
                stream.data(Json.write(delta(toolDelta(index, null, null, piece))));
            }
        };
    }

    /** A raw chunk, for servers' quirks (missing ids, interleaving, odd fields). */
    public static Part chunk(String json) {
        return stream -> stream.data(json);
    }

    /** An SSE comment line, as servers send for keep-alive. */
    public static Part keepAlive() {
        return stream -> stream.raw(": keep-alive\n\n");
    }

    public static Part finish(String reason) {
        return stream -> {
            ObjectNode chunk = Json.object();
            ObjectNode choice = chunk.putArray("choices").addObject();
            choice.put("index", 0).putObject("delta");
            choice.put("finish_reason", reason);
            stream.data(Json.write(chunk));
        };
    }

    /** The usage chunk OpenAI sends last when asked: empty choices. */
    public static Part usage(long prompt, long completion) {
        return stream -> {
            ObjectNode chunk = Json.object();
            chunk.putArray("choices");
            chunk.putObject("usage")
                    .put("prompt_tokens", prompt)
                    .put("completion_tokens", completion)
                    .put("total_tokens", prompt + completion);
            stream.data(Json.write(chunk));
        };
    }

    /** Ends the reply: a finish reason that fits its content, then [DONE]. */
    public static Part done() {
        return stream -> stream.data("[DONE]");
    }

    /** A whole text answer: text, finish "stop", [DONE]. */
    public static MockResponse answer(String text) {
        return reply(text(text), finish("stop"), done());
    }

    /** A reply made only of tool calls, finishing with "tool_calls". */
    public static MockResponse calls(Part... toolCalls) {
        List<Part> parts = new ArrayList<>(List.of(toolCalls));
        parts.add(finish("tool_calls"));
        parts.add(done());
        return reply(parts.toArray(Part[]::new));
    }

    private static ObjectNode delta(ObjectNode delta) {
        ObjectNode chunk = Json.object().put("id", "chatcmpl-test").put("object", "chat.completion.chunk");
        ArrayNode choices = chunk.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("finish_reason");
        return chunk;
    }

    private static ObjectNode content(String text) {
        return Json.object().put("role", "assistant").put("content", text);
    }

    public static ObjectNode toolDelta(int index, String id, String name, String arguments) {
        ObjectNode delta = Json.object();
        ObjectNode call = delta.putArray("tool_calls").addObject().put("index", index);
        if (id != null) {
            call.put("id", id).put("type", "function");
        }
        ObjectNode function = call.putObject("function");
        if (name != null) {
            function.put("name", name);
        }
        function.put("arguments", arguments);
        return delta;
    }

    /** A complete chunk carrying one tool-call delta, for hand-built interleavings. */
    public static Part toolFragment(int index, String id, String name, String arguments) {
        return stream -> stream.data(Json.write(delta(toolDelta(index, id, name, arguments))));
    }
}
