package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A model played turn by turn: enqueue the replies, run Dockhand, then take the requests it sent. Every request is
 * checked as it arrives against the rules of its wire format, known by its path ({@link WireFormat}), and, for the
 * Messages API, against the replies served before it ({@link AnthropicServedReplies}), whether or not the test ever
 * takes it: one that breaks them is answered with that API's 400, as the real server would, and is
 * recorded, and {@link #close} then fails the test. A test that breaks a request on purpose takes the record with
 * {@link #takeViolations}.
 */
public final class ScriptedModel implements AutoCloseable {
    private final MockWebServer server = new MockWebServer();
    private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
    private final List<Route> routes = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A scripted reply: fixed, or computed from the request. */
    private record Reply(MockResponse fixed, Function<JsonNode, MockResponse> computed) {
        MockResponse answer(JsonNode request) {
            return fixed != null ? fixed : computed.apply(request);
        }
    }

    private volatile RecordedRequest last;
    private final List<String> violations = new ArrayList<>();
    /** The Messages streams served so far, which the thinking of later requests is checked against. */
    private final AnthropicServedReplies anthropicReplies = new AnthropicServedReplies();

    public ScriptedModel() {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String body = request.getBody().clone().readUtf8();
                Optional<MockResponse> refused = check(request, body);
                if (refused.isPresent()) {
                    return refused.get();
                }
                JsonNode parsed;
                try {
                    parsed = Json.read(body);
                } catch (UncheckedIOException notJson) {
                    parsed = null;
                }
                Reply reply = queueFor(parsed).poll();
                if (reply == null) {
                    return new MockResponse()
                            .setResponseCode(500)
                            .setBody("{\"error\":{\"message\":\"the test scripted no more replies\"}}");
                }
                MockResponse answer = reply.answer(parsed);
                if (request.getPath() != null
                        && WireFormat.ofPath(request.getPath()).equals(Optional.of(WireFormat.ANTHROPIC))
                        && answer.getBody() != null) {
                    anthropicReplies.record(answer.getBody().readUtf8());
                }
                return answer;
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

    /**
     * Checks a request against its wire format's rules; the 400 (or, for a path no model API has, the 404) a real
     * server would answer when it breaks them, after recording why.
     */
    private Optional<MockResponse> check(RecordedRequest request, String text) {
        String path = request.getPath();
        if (path == null) {
            // A bookkeeping call for a connection a socket policy ended before any request: nothing to check.
            return Optional.empty();
        }
        Optional<WireFormat> format = WireFormat.ofPath(path);
        if (format.isEmpty()) {
            record(request.getMethod() + " " + path + ": no model API answers at this path");
            return Optional.of(new MockResponse().setResponseCode(404).setBody("{\"error\":\"not found\"}"));
        }
        JsonNode body;
        try {
            body = Json.read(text);
        } catch (UncheckedIOException notJson) {
            body = null;
        }
        List<String> problems = new ArrayList<>(format.get().problems(path, body));
        if (format.get() == WireFormat.ANTHROPIC && body != null) {
            // The one rule that needs what was served before: thinking goes back as the reply had it.
            WireProblems replayed = new WireProblems();
            anthropicReplies.check(body, replayed);
            problems.addAll(replayed.list());
        }
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        String excerpt = text.length() > 2000 ? text.substring(0, 2000) + "… (" + text.length() + " chars)" : text;
        record(format.get() + " request to " + path + ", which its API would refuse:\n  "
                + String.join("\n  ", problems) + "\n  request: " + excerpt);
        return Optional.of(format.get().rejection(problems));
    }

    private void record(String violation) {
        synchronized (violations) {
            violations.add(violation);
        }
    }

    /** The requests refused so far for breaking their API's rules, each with why; taking them clears the record. */
    public List<String> takeViolations() {
        synchronized (violations) {
            List<String> taken = List.copyOf(violations);
            violations.clear();
            return taken;
        }
    }

    /** Fails when a request broke its API's rules, so the test that caused it fails however it ends. */
    public void assertNoViolations() {
        List<String> seen;
        synchronized (violations) {
            seen = List.copyOf(violations);
        }
        if (!seen.isEmpty()) {
            throw new AssertionError(
                    "The scripted model received " + seen.size() + " invalid request(s):\n" + String.join("\n", seen));
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

    /**
     * A conversation of its own within the traffic, like a sub-agent's: the requests {@code recognises} picks out (by
     * their system prompt, or their first message) take their replies from the route's queue, in order, and all other
     * requests from the main one. Routes are asked in the order they were made. Their replies are never peeked, so a
     * socket policy on one does not apply.
     */
    public Route route(java.util.function.Predicate<JsonNode> recognises) {
        Route route = new Route(recognises);
        routes.add(route);
        return route;
    }

    /** Recognises the requests whose body holds {@code text} anywhere (a system prompt, a first message). */
    public static java.util.function.Predicate<JsonNode> mentioning(String text) {
        String quoted = Json.write(Json.MAPPER.getNodeFactory().textNode(text));
        String inner = quoted.substring(1, quoted.length() - 1);
        return request -> Json.write(request).contains(inner);
    }

    private BlockingQueue<Reply> queueFor(JsonNode request) {
        for (Route route : routes) {
            if (request != null && route.recognises.test(request)) {
                return route.replies;
            }
        }
        return replies;
    }

    /** The replies of one recognised conversation; see {@link #route}. */
    public static final class Route {
        private final java.util.function.Predicate<JsonNode> recognises;
        private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();

        private Route(java.util.function.Predicate<JsonNode> recognises) {
            this.recognises = recognises;
        }

        public Route enqueue(MockResponse... responses) {
            for (MockResponse response : responses) {
                replies.add(new Reply(response, null));
            }
            return this;
        }

        /** A reply computed from the request it answers; it may wait, to hold this conversation mid-request. */
        public Route reply(Function<JsonNode, MockResponse> reply) {
            replies.add(new Reply(null, reply));
            return this;
        }
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

    /**
     * The next chat request Dockhand sent, parsed; it fails at once if any request so far broke its API's rules
     * (every request is checked when it arrives).
     */
    public JsonNode takeRequest() {
        RecordedRequest request = takeRaw();
        last = request;
        assertNoViolations();
        // A copy: the server queues the request before its dispatcher reads the body, so reading it away here
        // could leave the dispatcher nothing to check.
        return Json.read(request.getBody().clone().readUtf8());
    }

    /** The same as {@link #takeRequest}, by the name the tests of the other providers use. */
    public JsonNode takeJson() {
        return takeRequest();
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
            RecordedRequest request = server.takeRequest(60, TimeUnit.SECONDS);
            if (request == null) {
                throw new AssertionError("no request arrived within 60 s");
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

    /** Stops the server, then fails if any request it received broke its API's rules. */
    @Override
    public void close() {
        try {
            server.shutdown();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertNoViolations();
    }
}
