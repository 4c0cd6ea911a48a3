package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.anthropic.AnthropicClient;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnthropicConformanceTest extends ProviderConformanceTest {
    @Override
    String provider() {
        return "anthropic";
    }

    @Override
    ModelClient client(Timeouts timeouts) {
        return new AnthropicClient(server.rootUrl(), KEY, 4096, timeouts);
    }

    @Override
    boolean assignsIds() {
        return false;
    }

    @Override
    String expectedPath() {
        return "/v1/messages";
    }

    @Override
    int errorStatus() {
        return 401;
    }

    @Override
    String expectedErrorMessage() {
        return "Anthropic at " + server.host() + " answered HTTP 401: invalid x-api-key";
    }

    @Override
    ModelReply expectedMaxTokensReply() {
        return new ModelReply(
                "",
                List.of(new ToolCall("toolu_big", "write_file", "{\"path\":\"big.txt\",\"content\":\"lorem ipsum")),
                FinishReason.LENGTH,
                Optional.empty());
    }

    @Override
    JsonNode expectedSecondRequest() {
        return Json.read(
                """
                {"model":"test-model","max_tokens":4096,"stream":true,
                 "system":[{"type":"text","text":"SYSTEM","cache_control":{"type":"ephemeral"}}],
                 "messages":[{"role":"user","content":[{"type":"text","text":"go",
                    "cache_control":{"type":"ephemeral"}}]},
                  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read_file",
                    "input":{"path":"README.md"}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1",
                    "content":"contents of README.md","cache_control":{"type":"ephemeral"}}]}]}
                """);
    }

    @Test
    void sendsTheKeyAndVersionHeaders() throws Exception {
        server.enqueue(fixture("text"));

        client(Timeouts.DEFAULT).stream(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, new Cancellation());

        server.takeJson();
        assertEquals(KEY, server.lastHeader("x-api-key"));
        assertEquals("2023-06-01", server.lastHeader("anthropic-version"));
    }

    @Test
    void reportsARefusal() throws Exception {
        server.enqueue(fixture("refusal"));

        ModelReply reply = client(Timeouts.DEFAULT).stream(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, new Cancellation());

        assertEquals(
                new ModelReply("I can", List.of(), FinishReason.CONTENT_FILTER, Optional.of(new TokenUsage(10, 5))),
                reply);
    }

    @Test
    void anOverloadErrorMidStreamIsARetryableServerFailure() {
        server.enqueue(fixture("mid_stream_error"));

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> client(Timeouts.DEFAULT).stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                        deltas::add,
                        new Cancellation()));

        assertEquals(
                "Anthropic at " + server.host() + " reported an error mid-stream: Overloaded", failure.getMessage());
        assertEquals(ProviderException.Kind.SERVER, failure.kind());
        assertEquals(true, RetryingModelClient.retryable(failure));
    }

    @Test
    void leavesOutWhitespaceOnlyTextWhichTheApiRefuses() throws Exception {
        server.enqueue(fixture("text"));

        client(Timeouts.DEFAULT).stream(
                new ModelRequest(
                        "m",
                        List.of(
                                new Message.User("first"),
                                new Message.Assistant(" \n", List.of()),
                                new Message.User("second"),
                                new Message.Assistant("\n", List.of(new ToolCall("toolu_1", "read_file", "{}"))),
                                new Message.ToolResult("toolu_1", "read_file", "ok", false)),
                        List.of()),
                deltas::add,
                new Cancellation());

        assertEquals(
                Json.read(
                        """
                [{"role":"user","content":[{"type":"text","text":"first"},{"type":"text","text":"second",
                   "cache_control":{"type":"ephemeral"}}]},
                 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}]},
                 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok",
                   "cache_control":{"type":"ephemeral"}}]}]
                """),
                server.takeJson().get("messages"));
    }

    @Test
    void givesAToolUseWithoutAnIdOrWithATakenOneAFreshId() throws Exception {
        server.enqueue(
                new okhttp3.mockwebserver.MockResponse()
                        .setHeader("Content-Type", "text/event-stream")
                        .setBody(
                                """
                        data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","name":"a","input":{}}}

                        data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_9","name":"b","input":{}}}

                        data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_9","name":"c","input":{}}}

                        data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}}

                        """));

        List<ToolCall> calls = client(Timeouts.DEFAULT).stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                        deltas::add,
                        new Cancellation())
                .toolCalls();

        assertEquals(List.of("a", "b", "c"), calls.stream().map(ToolCall::name).toList());
        assertEquals("toolu_9", calls.get(1).id());
        assertEquals(3, calls.stream().map(ToolCall::id).distinct().count(), calls.toString());
        assertTrue(calls.get(0).id().startsWith("call_"), calls.get(0).id());
    }

    @Test
    void mergesNeighbouringUserTurnsAndSkipsEmptyAssistantTurns() throws Exception {
        server.enqueue(fixture("text"));

        client(Timeouts.DEFAULT).stream(
                new ModelRequest(
                        "m",
                        List.of(
                                new Message.User("first"),
                                new Message.Assistant("", List.of()),
                                new Message.User("second")),
                        List.of()),
                deltas::add,
                new Cancellation());

        assertEquals(
                Json.read("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"first\"},"
                        + "{\"type\":\"text\",\"text\":\"second\",\"cache_control\":{\"type\":\"ephemeral\"}}]}]"),
                server.takeJson().get("messages"));
    }
}
