package dev.dockhand.core.model.openai;

import static dev.dockhand.core.testing.Sse.chunk;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.keepAlive;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.text;
import static dev.dockhand.core.testing.Sse.toolCall;
import static dev.dockhand.core.testing.Sse.toolFragment;
import static dev.dockhand.core.testing.Sse.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.testing.ScriptedModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiClientTest {
    private final ScriptedModel server = new ScriptedModel();
    private final OpenAiClient client = OpenAiClient.create(server.baseUrl(), "sk-secret-key");
    private final List<String> deltas = new ArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    private ModelReply send() throws ProviderException {
        return client.stream(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, new Cancellation());
    }

    @Test
    void streamsTextDeltasAndCollectsUsageFromTheChunkWithEmptyChoices() throws Exception {
        server.enqueue(reply(text("Hello world"), finish("stop"), usage(10, 2), done()));

        ModelReply reply = send();

        assertEquals(
                new ModelReply("Hello world", List.of(), FinishReason.STOP, Optional.of(new TokenUsage(10, 2))), reply);
        assertEquals(List.of("Hello", " world"), deltas);
        assertEquals("/v1/chat/completions", server.takeRaw().getPath());
    }

    @Test
    void ignoresKeepAliveComments() throws Exception {
        server.enqueue(reply(keepAlive(), text("ok"), keepAlive(), finish("stop"), done()));

        assertEquals("ok", send().text());
    }

    @Test
    void assemblesToolCallsSentWholeInOneChunk() throws Exception {
        server.enqueue(reply(toolFragment(0, "c1", "read_file", "{\"path\":\"a\"}"), finish("tool_calls"), done()));

        assertEquals(List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}")), send().toolCalls());
    }

    @Test
    void runsToolCallsEvenWhenTheServerSaysStop() throws Exception {
        server.enqueue(reply(toolCall("c1", "read_file", "{\"path\":\"a\"}"), finish("stop"), done()));

        ModelReply reply = send();

        assertEquals(FinishReason.STOP, reply.finishReason());
        assertEquals(List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}")), reply.toolCalls());
    }

    // codex tools.rs: "local_shell_missing_ids_maps_to_function_output_error" (here the call gets an id and runs; see
    // docs/scheduler.md)
    @Test
    void givesFreshIdsToCallsWithoutIdOrWithARepeatedId() throws Exception {
        server.enqueue(reply(
                toolFragment(0, null, "a", "{}"),
                toolFragment(1, "dup", "b", "{}"),
                toolFragment(2, "dup", "c", "{}"),
                finish("tool_calls"),
                done()));

        List<ToolCall> calls = send().toolCalls();

        assertEquals(List.of("a", "b", "c"), calls.stream().map(ToolCall::name).toList());
        assertTrue(calls.get(0).id().startsWith("call_"), calls.get(0).id());
        assertEquals("dup", calls.get(1).id());
        assertTrue(calls.get(2).id().startsWith("call_"), calls.get(2).id());
        assertNotEquals(calls.get(0).id(), calls.get(2).id());
    }

    @Test
    void keepsACallThatNeverGotANameUnderThePlaceholderName() throws Exception {
        server.enqueue(reply(
                toolFragment(0, "c1", null, "{\"path\":"),
                toolFragment(0, null, null, "\"a\"}"),
                toolFragment(1, "c2", " ", ""),
                // A fragment that brings nothing (no id, name or arguments) holds no call to answer.
                toolFragment(2, null, null, ""),
                finish("tool_calls"),
                done()));

        assertEquals(
                List.of(
                        new ToolCall("c1", ToolCall.MISSING_NAME, "{\"path\":\"a\"}"),
                        new ToolCall("c2", ToolCall.MISSING_NAME, "")),
                send().toolCalls());
    }

    @Test
    void toleratesTheIdRepeatedOnEveryFragmentAndFragmentsWithoutIndex() throws Exception {
        server.enqueue(reply(
                chunk("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"r1\",\"function\":"
                        + "{\"name\":\"echo\",\"arguments\":\"{\\\"te\"}}]}}]}"),
                chunk("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"r1\",\"function\":"
                        + "{\"arguments\":\"xt\\\":1}\"}}]}}]}"),
                chunk("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"r2\",\"function\":"
                        + "{\"name\":\"echo\",\"arguments\":\"{}\"}}]}}]}"),
                finish("tool_calls"),
                done()));

        assertEquals(
                List.of(new ToolCall("r1", "echo", "{\"text\":1}"), new ToolCall("r2", "echo", "{}")),
                send().toolCalls());
    }

    @Test
    void rateLimitCarriesRetryAfter() {
        server.enqueue(new MockResponse()
                .setResponseCode(429)
                .setHeader("Retry-After", "7")
                .setBody("{\"error\":{\"message\":\"Rate limit reached\"}}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.RATE_LIMITED, failure.kind());
        assertEquals(Optional.of(Duration.ofSeconds(7)), failure.retryAfter());
        assertEquals(
                "The OpenAI-compatible server at " + server.host() + " answered HTTP 429: Rate limit reached",
                failure.getMessage());
    }

    @Test
    void badRequestKeepsAPlainTextBody() {
        server.enqueue(new MockResponse().setResponseCode(400).setBody("model not found\n"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.BAD_REQUEST, failure.kind());
        assertEquals(
                "The OpenAI-compatible server at " + server.host() + " answered HTTP 400: model not found",
                failure.getMessage());
    }

    @Test
    void errorEventInsideTheStreamFailsTheReply() {
        server.enqueue(reply(text("par"), chunk("{\"error\":{\"message\":\"upstream timeout\"}}"), done()));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(
                "The OpenAI-compatible server at " + server.host() + " reported an error mid-stream: upstream timeout",
                failure.getMessage());
    }

    @Test
    void aStreamCutBeforeTheReplyEndsIsANetworkFailure() {
        server.enqueue(reply(text("half an ans")));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.NETWORK, failure.kind());
    }

    @Test
    void aReplyThatIsNotAnEventStreamIsAProtocolFailure() {
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "application/json").setBody("{}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.PROTOCOL, failure.kind());
    }

    @Test
    void unreachableServerIsANetworkFailureNamingTheHost() throws Exception {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AT_START));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.NETWORK, failure.kind());
        assertTrue(
                failure.getMessage().startsWith("Could not reach the OpenAI-compatible server at " + server.host()),
                failure.getMessage());
    }

    @Test
    void cancelClosesTheStreamAndReturnsTheTextSoFar() throws Exception {
        server.enqueue(stalledAfter(reply(text("partial"))));
        Cancellation cancel = new Cancellation();
        CountDownLatch firstDelta = new CountDownLatch(1);

        CompletableFuture<ModelReply> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return client.stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                        delta -> firstDelta.countDown(),
                        cancel);
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(firstDelta.await(60, TimeUnit.SECONDS));
        cancel.cancel();

        ModelReply cancelled = reply.get(60, TimeUnit.SECONDS);
        assertEquals(FinishReason.CANCELLED, cancelled.finishReason());
        assertEquals("partial", cancelled.text());
    }

    @Test
    void aCancelBeforeTheRequestSendsNothing() throws Exception {
        server.enqueue(reply(text("never")));
        Cancellation cancel = new Cancellation();
        cancel.cancel();

        ModelReply cancelled =
                client.stream(new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, cancel);

        assertEquals(List.of(FinishReason.CANCELLED, ""), List.of(cancelled.finishReason(), cancelled.text()));
        assertEquals(0, server.requestCount());
    }

    @Test
    void aCancelWhileWaitingForTheFirstByteEndsTheRequest() throws Exception {
        // The stream runs on the caller's thread; the cancel comes from another one, as Ctrl-C's does.
        // The server reads the request and never answers: only the cancel can end the wait.
        server.enqueue(new okhttp3.mockwebserver.MockResponse()
                .setSocketPolicy(okhttp3.mockwebserver.SocketPolicy.NO_RESPONSE));
        Cancellation cancel = new Cancellation();
        CompletableFuture<ModelReply> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return client.stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, cancel);
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        server.takeRequest();
        cancel.cancel();

        ModelReply cancelled = reply.get(60, TimeUnit.SECONDS);
        assertEquals(List.of(FinishReason.CANCELLED, ""), List.of(cancelled.finishReason(), cancelled.text()));
    }

    @Test
    void aCancelEndsOnlyItsOwnStreamWhenTwoShareTheClient() throws Exception {
        // The first stalls after its text; the second has its whole reply, then its stream stays open 3 s.
        server.enqueue(stalledAfter(reply(text("first"))), stalledAfter(reply(text("second"), finish("stop"), done())));
        Cancellation cancelFirst = new Cancellation();
        CountDownLatch firstStreams = new CountDownLatch(1);
        CountDownLatch secondStreams = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<ModelReply> first = threads.submit(() -> client.stream(
                    new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                    delta -> firstStreams.countDown(),
                    cancelFirst));
            assertTrue(firstStreams.await(60, TimeUnit.SECONDS));
            Future<ModelReply> second = threads.submit(() -> client.stream(
                    new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                    delta -> secondStreams.countDown(),
                    new Cancellation()));
            assertTrue(secondStreams.await(60, TimeUnit.SECONDS));

            cancelFirst.cancel();

            ModelReply cancelled = first.get(60, TimeUnit.SECONDS);
            ModelReply finished = second.get(60, TimeUnit.SECONDS);
            assertEquals(
                    List.of(List.of(FinishReason.CANCELLED, "first"), List.of(FinishReason.STOP, "second")),
                    List.of(
                            List.of(cancelled.finishReason(), cancelled.text()),
                            List.of(finished.finishReason(), finished.text())));
        } finally {
            threads.shutdownNow();
        }
    }

    /** The reply's events arrive at once, then the stream stays open, silent, for 3 s. */
    static MockResponse stalledAfter(MockResponse events) {
        long size = events.getBody().size();
        okio.Buffer body = events.getBody().clone();
        body.writeUtf8(": still thinking\n\n");
        return events.setBody(body).throttleBody(size, 3, TimeUnit.SECONDS);
    }

    @Test
    void aStreamThatGoesQuietFailsNamingTheIdleTimeout() {
        OpenAiClient impatient = new OpenAiClient(
                server.baseUrl(),
                "k",
                new dev.dockhand.core.model.Timeouts(
                        Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(300)));
        server.enqueue(stalledAfter(reply(text("half"))));

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> impatient.stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                        deltas::add,
                        new Cancellation()));

        assertEquals(
                "The OpenAI-compatible server at " + server.host() + " went quiet for 0.3 s (the idle time-out);"
                        + " the reply was abandoned.",
                failure.getMessage());
        assertEquals(ProviderException.Kind.NETWORK, failure.kind());
    }

    @Test
    void aServerThatNeverAnswersFailsNamingTheFirstByteTimeout() {
        OpenAiClient impatient = new OpenAiClient(
                server.baseUrl(),
                "k",
                new dev.dockhand.core.model.Timeouts(
                        Duration.ofSeconds(5), Duration.ofMillis(300), Duration.ofSeconds(5)));
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> impatient.stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                        deltas::add,
                        new Cancellation()));

        assertEquals(
                "The OpenAI-compatible server at " + server.host() + " sent nothing for 0.3 s (the first-byte"
                        + " time-out); the reply was abandoned.",
                failure.getMessage());
    }
}
