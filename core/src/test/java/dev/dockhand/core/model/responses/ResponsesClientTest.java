package dev.dockhand.core.model.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.RetryPolicy;
import dev.dockhand.core.model.RetryingModelClient;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.testing.ScriptedModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the Responses client fails, retries, times out and cancels, and the stream events the fixtures do not show. */
class ResponsesClientTest {
    private static final String TEXT_ITEM = "{\"type\":\"response.output_item.added\",\"output_index\":0,"
            + "\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"content\":[],"
            + "\"role\":\"assistant\"}}";

    private final ScriptedModel server = new ScriptedModel();
    private final List<String> text = new ArrayList<>();
    private final List<String> reasoning = new ArrayList<>();
    private final ModelClient.StreamListener listener = new ModelClient.StreamListener() {
        @Override
        public void onTextDelta(String delta) {
            text.add(delta);
        }

        @Override
        public void onReasoningDelta(String delta) {
            reasoning.add(delta);
        }
    };

    @AfterEach
    void stop() {
        server.close();
    }

    /** A stream of the given events, each as a bare data line. */
    private static MockResponse events(String... events) {
        StringBuilder body = new StringBuilder();
        for (String event : events) {
            body.append("data: ").append(event).append("\n\n");
        }
        return new MockResponse().setHeader("Content-Type", "text/event-stream").setBody(body.toString());
    }

    private static String textDelta(String delta) {
        return "{\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,"
                + "\"content_index\":0,\"delta\":" + Json.write(delta) + "}";
    }

    private static String completed() {
        return "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\","
                + "\"usage\":{\"input_tokens\":7,\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":2,"
                + "\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":9}}}";
    }

    private ModelReply send(ModelClient client) throws ProviderException {
        return client.stream(
                new ModelRequest("gpt-5", List.of(new Message.User("hi")), List.of()), listener, new Cancellation());
    }

    private ModelReply send() throws ProviderException {
        return send(new ResponsesClient(server.baseUrl(), "sk-secret", Timeouts.DEFAULT));
    }

    @Test
    void anErrorEventFailsTheReplyInTheProvidersWords() {
        server.enqueue(events(
                TEXT_ITEM,
                textDelta("par"),
                "{\"type\":\"error\",\"code\":\"server_error\",\"message\":\"The server had an error while"
                        + " processing your request.\",\"param\":null,\"sequence_number\":3}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(
                "OpenAI Responses at " + server.host() + " reported an error mid-stream: The server had an error"
                        + " while processing your request.",
                failure.getMessage());
    }

    @Test
    void aFailedResponseGivesItsError() {
        server.enqueue(events("{\"type\":\"response.failed\",\"response\":{\"id\":\"resp_1\",\"status\":\"failed\","
                + "\"error\":{\"code\":\"server_error\",\"message\":\"The model failed to generate a response.\"},"
                + "\"usage\":null}}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(
                List.of(
                        ProviderException.Kind.SERVER,
                        "OpenAI Responses at " + server.host() + " reported an error mid-stream: The model failed to"
                                + " generate a response."),
                List.of(failure.kind(), failure.getMessage()));
    }

    @Test
    void aBadRequestGivesOpenAisMessage() {
        server.enqueue(new MockResponse()
                .setResponseCode(400)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"error\":{\"message\":\"No tool output found for function call call_1.\","
                        + "\"type\":\"invalid_request_error\",\"param\":\"input\",\"code\":null}}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(
                List.of(
                        ProviderException.Kind.BAD_REQUEST,
                        400,
                        "OpenAI Responses at " + server.host() + " answered HTTP 400: No tool output found for"
                                + " function call call_1."),
                List.of(failure.kind(), failure.httpStatus(), failure.getMessage()));
    }

    @Test
    void aRateLimitCarriesRetryAfter() {
        server.enqueue(new MockResponse()
                .setResponseCode(429)
                .setHeader("Retry-After", "7")
                .setBody("{\"error\":{\"message\":\"Rate limit reached\"}}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.RATE_LIMITED, failure.kind());
        assertEquals(Optional.of(Duration.ofSeconds(7)), failure.retryAfter());
    }

    @Test
    void anOverloadedServerIsRetriedAndTheRetryIsAnswered() throws Exception {
        server.enqueue(
                new MockResponse().setResponseCode(503).setBody("{\"error\":{\"message\":\"overloaded\"}}"),
                events(TEXT_ITEM, textDelta("Made it."), completed()));
        List<Duration> waits = new ArrayList<>();
        RetryingModelClient client = new RetryingModelClient(
                new ResponsesClient(server.baseUrl(), "k", Timeouts.DEFAULT),
                RetryPolicy.of(3, Duration.ofSeconds(1)),
                (delay, cancel) -> waits.add(delay));

        ModelReply reply = send(client);

        assertEquals(List.of("Made it.", FinishReason.STOP), List.of(reply.text(), reply.finishReason()));
        assertEquals(2, server.requestCount());
        assertEquals(1, waits.size());
    }

    @Test
    void aStreamCutBeforeTheResponseCompletesIsANetworkFailure() {
        server.enqueue(events(TEXT_ITEM, textDelta("half an ans")));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(ProviderException.Kind.NETWORK, failure.kind());
    }

    /** The reply's events arrive at once, then the stream stays open, silent, for 3 s. */
    private static MockResponse stalledAfter(MockResponse events) {
        long size = events.getBody().size();
        okio.Buffer body = events.getBody().clone();
        body.writeUtf8(": still thinking\n\n");
        return events.setBody(body).throttleBody(size, 3, TimeUnit.SECONDS);
    }

    @Test
    void aStreamThatGoesQuietFailsNamingTheIdleTimeout() {
        server.enqueue(stalledAfter(events(TEXT_ITEM, textDelta("half"))));
        ResponsesClient impatient = new ResponsesClient(
                server.baseUrl(),
                "k",
                new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(300)));

        ProviderException failure = assertThrows(ProviderException.class, () -> send(impatient));

        assertEquals(
                "OpenAI Responses at " + server.host() + " went quiet for 0.3 s (the idle time-out); the reply was"
                        + " abandoned.",
                failure.getMessage());
    }

    @Test
    void aServerThatNeverAnswersFailsNamingTheFirstByteTimeout() {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        ResponsesClient impatient = new ResponsesClient(
                server.baseUrl(),
                "k",
                new Timeouts(Duration.ofSeconds(5), Duration.ofMillis(300), Duration.ofSeconds(5)));

        ProviderException failure = assertThrows(ProviderException.class, () -> send(impatient));

        assertEquals(
                "OpenAI Responses at " + server.host() + " sent nothing for 0.3 s (the first-byte time-out); the"
                        + " reply was abandoned.",
                failure.getMessage());
    }

    @Test
    void aCancelClosesTheStreamAndReturnsTheTextSoFar() throws Exception {
        server.enqueue(stalledAfter(events(TEXT_ITEM, textDelta("partial"))));
        ResponsesClient client = new ResponsesClient(server.baseUrl(), "k", Timeouts.DEFAULT);
        Cancellation cancel = new Cancellation();
        CountDownLatch firstDelta = new CountDownLatch(1);

        CompletableFuture<ModelReply> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return client.stream(
                        new ModelRequest("gpt-5", List.of(new Message.User("hi")), List.of()),
                        delta -> firstDelta.countDown(),
                        cancel);
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(firstDelta.await(60, TimeUnit.SECONDS));
        cancel.cancel();

        ModelReply cancelled = reply.get(60, TimeUnit.SECONDS);
        assertEquals(List.of(FinishReason.CANCELLED, "partial"), List.of(cancelled.finishReason(), cancelled.text()));
    }

    @Test
    void aReplyStoppedByTheContentFilterSaysSo() throws Exception {
        server.enqueue(events(
                TEXT_ITEM,
                textDelta("I can"),
                "{\"type\":\"response.incomplete\",\"response\":{\"id\":\"resp_1\",\"status\":\"incomplete\","
                        + "\"incomplete_details\":{\"reason\":\"content_filter\"},\"usage\":null}}"));

        ModelReply reply = send();

        assertEquals(List.of("I can", FinishReason.CONTENT_FILTER), List.of(reply.text(), reply.finishReason()));
    }

    @Test
    void theSummaryPartsOfAReplyAreParagraphs() throws Exception {
        server.enqueue(events(
                "{\"type\":\"response.reasoning_summary_text.delta\",\"item_id\":\"rs_1\",\"output_index\":0,"
                        + "\"summary_index\":0,\"delta\":\"**Reading**\"}",
                "{\"type\":\"response.reasoning_summary_text.delta\",\"item_id\":\"rs_1\",\"output_index\":0,"
                        + "\"summary_index\":1,\"delta\":\"**Answering**\"}",
                completed()));

        ModelReply reply = send();

        assertEquals("**Reading**\n\n**Answering**", reply.reasoning());
        assertEquals(List.of("**Reading**", "\n\n", "**Answering**"), reasoning);
    }

    @Test
    void aMessageSentWholeWithoutDeltasIsTheText() throws Exception {
        server.enqueue(events(
                TEXT_ITEM,
                "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"id\":\"msg_1\","
                        + "\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\",\"content\":"
                        + "[{\"type\":\"output_text\",\"annotations\":[],\"text\":\"All at once.\"}]}}",
                completed()));

        ModelReply reply = send();

        assertEquals("All at once.", reply.text());
        assertEquals(List.of("All at once."), text);
    }

    @Test
    void requestsGoToTheResponsesPathWithTheKeyAsBearer() throws Exception {
        server.enqueue(events(TEXT_ITEM, textDelta("ok"), completed()));

        send();

        server.takeRequest();
        assertEquals(
                List.of("/v1/responses", "Bearer sk-secret"),
                List.of(server.lastPath(), server.lastHeader("Authorization")));
    }

    @Test
    void interleavedCallsAreTakenApartByTheirItemEvenWithoutAnOutputIndex() throws Exception {
        server.enqueue(events(
                "{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"fc_a\","
                        + "\"type\":\"function_call\",\"arguments\":\"\",\"call_id\":\"call_a\",\"name\":\"read_file\"}}",
                "{\"type\":\"response.output_item.added\",\"output_index\":1,\"item\":{\"id\":\"fc_b\","
                        + "\"type\":\"function_call\",\"arguments\":\"\",\"call_id\":\"call_b\",\"name\":\"read_file\"}}",
                "{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_b\",\"delta\":\"{\\\"path\\\":\"}",
                "{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_a\",\"delta\":\"{\\\"path\\\":\"}",
                "{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_a\",\"delta\":\"\\\"a\\\"}\"}",
                "{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_b\",\"delta\":\"\\\"b\\\"}\"}",
                completed()));

        ModelReply reply = send();

        assertEquals(
                List.of(
                        new ToolCall("call_a", "read_file", "{\"path\":\"a\"}"),
                        new ToolCall("call_b", "read_file", "{\"path\":\"b\"}")),
                reply.toolCalls());
        assertEquals(FinishReason.TOOL_CALLS, reply.finishReason());
    }

    @Test
    void aRefusalIsTheAnswer() throws Exception {
        server.enqueue(events(
                TEXT_ITEM,
                "{\"type\":\"response.refusal.delta\",\"item_id\":\"msg_1\",\"output_index\":0,"
                        + "\"content_index\":0,\"delta\":\"I can't help with that.\"}",
                completed()));

        assertEquals("I can't help with that.", send().text());
    }
}
