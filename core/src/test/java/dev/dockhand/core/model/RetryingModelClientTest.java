package dev.dockhand.core.model;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.Sse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RetryingModelClientTest {
    private final ScriptedModel server = new ScriptedModel();
    private final List<Duration> waits = new ArrayList<>();
    private final List<ModelClient.RetryNotice> notices = new ArrayList<>();
    private final List<String> deltas = new ArrayList<>();
    private final RetryPolicy policy =
            new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(60));
    private final RetryingModelClient client = new RetryingModelClient(
            OpenAiClient.create(server.baseUrl(), "k"), policy, (delay, cancel) -> waits.add(delay));

    @AfterEach
    void stop() {
        server.close();
    }

    private ModelReply send(Cancellation cancel) throws ProviderException {
        return client.stream(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                new ModelClient.StreamListener() {
                    @Override
                    public void onTextDelta(String text) {
                        deltas.add(text);
                    }

                    @Override
                    public void onRetry(ModelClient.RetryNotice notice) {
                        notices.add(notice);
                    }
                },
                cancel);
    }

    private static MockResponse status(int code) {
        return new MockResponse().setResponseCode(code).setBody("{\"error\":{\"message\":\"busy\"}}");
    }

    @Test
    void retriesOverloadAndServerErrorsThenSucceeds() throws Exception {
        server.enqueue(status(529), status(503), answer("finally"));

        assertEquals("finally", send(new Cancellation()).text());
        assertEquals(3, server.requestCount());
        assertEquals(
                List.of(1, 2),
                notices.stream().map(ModelClient.RetryNotice::attempt).toList());
        assertEquals(
                "The OpenAI-compatible server at " + server.host() + " answered HTTP 529: busy",
                notices.get(0).reason());
    }

    @Test
    void waitsLongerEachTimeWithJitter() throws Exception {
        server.enqueue(status(500), status(502), answer("ok"));

        send(new Cancellation());

        assertEquals(2, waits.size());
        assertEquals(true, waits.get(0).toMillis() >= 500 && waits.get(0).toMillis() <= 1000, waits.toString());
        assertEquals(true, waits.get(1).toMillis() >= 1000 && waits.get(1).toMillis() <= 2000, waits.toString());
    }

    @Test
    void honoursRetryAfter() throws Exception {
        server.enqueue(status(429).setHeader("Retry-After", "7"), answer("ok"));

        send(new Cancellation());

        assertEquals(List.of(Duration.ofSeconds(7)), waits);
    }

    @Test
    void retriesAConnectionFailure() throws Exception {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AT_START), answer("ok"));

        assertEquals("ok", send(new Cancellation()).text());
    }

    @Test
    void givesUpAfterTheLastAttempt() {
        server.enqueue(status(503), status(503), status(503));

        ProviderException failure = assertThrows(ProviderException.class, () -> send(new Cancellation()));

        assertEquals(503, failure.httpStatus());
        assertEquals(3, server.requestCount());
    }

    @Test
    void neverRetriesAuthenticationOrBadRequests() {
        server.enqueue(status(401));

        assertThrows(ProviderException.class, () -> send(new Cancellation()));
        assertEquals(1, server.requestCount());
        assertEquals(List.of(), notices);
    }

    @Test
    void neverRetriesOnceTextReachedTheUser() {
        server.enqueue(Sse.reply(text("Half an answer")));

        ProviderException failure = assertThrows(ProviderException.class, () -> send(new Cancellation()));

        assertEquals(ProviderException.Kind.NETWORK, failure.kind());
        assertEquals(1, server.requestCount());
        assertEquals("Half an answer", String.join("", deltas));
    }

    @Test
    void aCancelDuringTheWaitEndsTheRequest() throws Exception {
        Cancellation cancel = new Cancellation();
        RetryingModelClient cancelling =
                new RetryingModelClient(OpenAiClient.create(server.baseUrl(), "k"), policy, (delay, token) -> {
                    token.cancel();
                    return false;
                });
        server.enqueue(status(503));

        ModelReply reply = cancelling.stream(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, cancel);

        assertEquals(FinishReason.CANCELLED, reply.finishReason());
        assertEquals(1, server.requestCount());
    }
}
