package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A model played turn by turn: enqueue the replies, run Dockhand, then take the requests it sent, each already
 * checked with {@link WireAssertions#assertValidConversation}.
 */
public final class ScriptedModel implements AutoCloseable {
    private final MockWebServer server = new MockWebServer();
    private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();

    /** A scripted reply: fixed, or computed from the request. */
    private record Reply(MockResponse fixed, Function<JsonNode, MockResponse> computed) {
        MockResponse answer(JsonNode request) {
            return fixed != null ? fixed : computed.apply(request);
        }
    }

    private volatile RecordedRequest last;

    public ScriptedModel() {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                Reply reply = replies.poll();
                if (reply == null) {
                    return new MockResponse()
                            .setResponseCode(500)
                            .setBody("{\"error\":{\"message\":\"the test scripted no more replies\"}}");
                }
                return reply.answer(Json.read(request.getBody().clone().readUtf8()));
            }

            /** The server asks before reading a request, to honour socket policies such as disconnecting at once. */
            @Override
            public MockResponse peek() {
                Reply next = replies.peek();
                return next != null && next.fixed() != null ? next.fixed() : super.peek();
            }
        });
        try {
            server.start(java.net.InetAddress.getLoopbackAddress(), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL to give the client, ending in /v1 like OpenAI's. */
    public String baseUrl() {
        return server.url("/v1").toString();
    }

    /** The host and port error messages use for this server. */
    public String host() {
        return server.getHostName() + ":" + server.getPort();
    }

    public ScriptedModel enqueue(MockResponse... responses) {
        for (MockResponse response : responses) {
            replies.add(new Reply(response, null));
        }
        return this;
    }

    /** A reply computed from the request it answers, for models that quote what Dockhand sent. */
    public ScriptedModel reply(Function<JsonNode, MockResponse> reply) {
        replies.add(new Reply(null, reply));
        return this;
    }

    /** The next chat request Dockhand sent, parsed and checked for validity. */
    public JsonNode takeRequest() {
        RecordedRequest request = takeRaw();
        last = request;
        JsonNode body = Json.read(request.getBody().readUtf8());
        WireAssertions.assertValidConversation(body);
        return body;
    }

    /** The next request's body, parsed but not checked (for providers whose format is not OpenAI's). */
    public JsonNode takeJson() {
        RecordedRequest request = takeRaw();
        last = request;
        return Json.read(request.getBody().readUtf8());
    }

    /** The path and query of the request last returned by {@link #takeRequest} or {@link #takeJson}. */
    public String lastPath() {
        return last.getPath();
    }

    /** The server's root URL, for providers whose base URL has no /v1. */
    public String rootUrl() {
        return server.url("/").toString();
    }

    public RecordedRequest takeRaw() {
        try {
            RecordedRequest request = server.takeRequest(10, TimeUnit.SECONDS);
            if (request == null) {
                throw new AssertionError("no request arrived within 10 s");
            }
            return request;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A header of the request last returned by {@link #takeRequest}. */
    public String lastHeader(String name) {
        return last.getHeader(name);
    }

    public int requestCount() {
        return server.getRequestCount();
    }

    @Override
    public void close() {
        try {
            server.shutdown();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
