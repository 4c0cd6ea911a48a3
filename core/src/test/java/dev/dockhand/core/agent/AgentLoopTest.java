package dev.dockhand.core.agent;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.text;
import static dev.dockhand.core.testing.Sse.toolCall;
import static dev.dockhand.core.testing.Sse.toolFragment;
import static dev.dockhand.core.testing.Sse.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.Provider;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestLoops;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolKind;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentLoopTest {
    @TempDir
    Path workspace;

    private final ScriptedModel model = new ScriptedModel();
    private final EventRecorder events = new EventRecorder();
    private final TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);
    private final TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);

    @AfterEach
    void stopServer() {
        model.close();
    }

    private AgentLoop loop(ApprovalMode mode, Approver approver, int maxTurns, Tool<?>... tools) {
        return TestLoops.loop(model, workspace, events, mode, approver, maxTurns, List.of(tools));
    }

    private AgentLoop loop(Tool<?>... tools) {
        return loop(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 100, tools);
    }

    @Test
    void answersWithoutToolsAndSendsAStreamingRequest() throws Exception {
        model.enqueue(reply(text("Hello there"), finish("stop"), usage(12, 3), done()));

        TurnResult result = loop(echo).run("hi", new Cancellation());

        assertEquals(new TurnResult(TurnResult.Outcome.ANSWERED, "Hello there", 1, new TokenUsage(12, 3)), result);
        JsonNode request = model.takeRequest();
        assertEquals(
                Json.read(
                        """
                {"model":"test-model","stream":true,"stream_options":{"include_usage":true},
                 "messages":[{"role":"system","content":"SYSTEM"},{"role":"user","content":"hi"}],
                 "tools":[{"type":"function","function":{"name":"echo","description":"Test tool echo.",
                   "parameters":{"type":"object","properties":{"text":{"type":"string","description":"Any text."}},
                   "required":["text"],"additionalProperties":false}}}]}
                """),
                request);
        assertEquals("Bearer sk-test", model.lastHeader("Authorization"));
    }

    // codex tool_parallelism.rs: "tool_results_grouped"
    @Test
    void multiRoundConversationSendsEveryResultBackInOrder() throws Exception {
        model.enqueue(
                calls(toolCall("c1", "echo", "{\"text\":\"one\"}")),
                reply(
                        text("Checking two."),
                        toolCall("c2", "echo", "{\"text\":\"two\"}"),
                        finish("tool_calls"),
                        done()),
                answer("All done."));

        TurnResult result = loop(echo).run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals("All done.", result.answer());
        assertEquals(3, result.requests());
        model.takeRequest();
        model.takeRequest();
        JsonNode third = model.takeRequest();
        assertEquals(
                Json.read(
                        """
                [{"role":"system","content":"SYSTEM"},
                 {"role":"user","content":"go"},
                 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",
                   "function":{"name":"echo","arguments":"{\\"text\\":\\"one\\"}"}}]},
                 {"role":"tool","tool_call_id":"c1","content":"echo: one"},
                 {"role":"assistant","content":"Checking two.","tool_calls":[{"id":"c2","type":"function",
                   "function":{"name":"echo","arguments":"{\\"text\\":\\"two\\"}"}}]},
                 {"role":"tool","tool_call_id":"c2","content":"echo: two"}]
                """),
                third.get("messages"));
        assertEquals(List.of("one", "two"), echo.runs);
    }

    @Test
    void aReplyWithNeitherTextNorCallsEndsTheTurnAsEmptyAndTheNextTurnCarriesOn() throws Exception {
        model.enqueue(reply(finish("stop"), usage(12, 0), done()), reply(text(" \n"), finish("stop"), done()));
        AgentLoop loop = loop(echo);

        TurnResult nothing = loop.run("hi", new Cancellation());
        TurnResult blank = loop.run("again", new Cancellation());

        assertEquals(new TurnResult(TurnResult.Outcome.EMPTY_REPLY, "", 1, new TokenUsage(12, 0)), nothing);
        assertEquals(TurnResult.Outcome.EMPTY_REPLY, blank.outcome());
        assertEquals("", blank.answer());
        model.takeRequest();
        assertEquals(
                Json.read(
                        """
                [{"role":"system","content":"SYSTEM"},{"role":"user","content":"hi"},
                 {"role":"assistant","content":""},{"role":"user","content":"again"}]
                """),
                model.takeRequest().get("messages"));
    }

    @Test
    void aCallWithoutANameIsAnsweredWithAnErrorAndTheModelCanCallAgain() throws Exception {
        model.enqueue(
                calls(toolFragment(0, "c1", null, "")),
                calls(toolCall("c2", "echo", "{\"text\":\"hi\"}")),
                answer("Done."));

        TurnResult result = loop(echo).run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals(List.of("hi"), echo.runs);
        model.takeRequest();
        assertEquals(
                Json.read(
                        """
                [{"role":"system","content":"SYSTEM"},
                 {"role":"user","content":"go"},
                 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",
                   "function":{"name":"missing_tool_name","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"c1","content":"Your tool call had no tool name, so nothing ran (it had\
                 no arguments either). Call again with the name of one of these tools: echo."}]
                """),
                model.takeRequest().get("messages"));
    }

    @Test
    void roundWithThreeCallsIsAnsweredAsOneAssistantMessageAndThreeResults() throws Exception {
        model.enqueue(
                calls(
                        toolCall("a", "echo", "{\"text\":\"1\"}"),
                        toolCall("b", "edit", "{\"text\":\"2\"}"),
                        toolCall("c", "echo", "{\"text\":\"3\"}")),
                answer("ok"));

        loop(echo, edit).run("three", new Cancellation());

        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(6, messages.size());
        assertEquals(3, messages.get(2).get("tool_calls").size());
        assertEquals(
                List.of("echo: 1", "echo: 2", "echo: 3"),
                List.of(
                        messages.get(3).get("content").asText(),
                        messages.get(4).get("content").asText(),
                        messages.get(5).get("content").asText()));
    }

    @Test
    void reassemblesInterleavedCallsWhoseArgumentsArriveInFragments() throws Exception {
        model.enqueue(
                reply(
                        toolFragment(0, "x1", "echo", ""),
                        toolFragment(1, "x2", "echo", "{\"te"),
                        toolFragment(0, null, null, "{\"text\""),
                        toolFragment(1, null, null, "xt\":\"sec"),
                        toolFragment(0, null, null, ":\"first\"}"),
                        toolFragment(1, null, null, "ond\"}"),
                        finish("tool_calls"),
                        done()),
                answer("ok"));

        loop(echo).run("interleave", new Cancellation());

        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals("echo: first", messages.get(3).get("content").asText());
        assertEquals("echo: second", messages.get(4).get("content").asText());
    }

    @Test
    void unknownToolIsAnsweredWithTheAvailableToolsAndTheLoopGoesOn() throws Exception {
        model.enqueue(calls(toolCall("u1", "delete_everything", "{}")), answer("sorry"));

        TurnResult result = loop(echo, edit).run("x", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        model.takeRequest();
        assertEquals(
                "Unknown tool 'delete_everything'. Available tools: echo, edit.",
                model.takeRequest().get("messages").get(3).get("content").asText());
    }

    @Test
    void malformedArgumentsAreQuotedBackAndReplayedAsAnEmptyObject() throws Exception {
        model.enqueue(calls(toolCall("m1", "echo", "{\"text\": ")), answer("retrying"));

        loop(echo).run("x", new Cancellation());

        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(
                "{}",
                messages.get(2)
                        .get("tool_calls")
                        .get(0)
                        .get("function")
                        .get("arguments")
                        .asText());
        String content = messages.get(3).get("content").asText();
        assertTrue(content.startsWith("The arguments for echo are not valid JSON ("), content);
        assertTrue(
                content.endsWith("): `{\"text\": `. Call it again with a JSON object that matches its schema."),
                content);
        assertEquals(List.of(), echo.runs);
    }

    // codex tool_harness.rs: "update_plan_tool_rejects_malformed_payload"
    @Test
    void schemaViolationsNameTheField() throws Exception {
        model.enqueue(calls(toolCall("s1", "echo", "{\"text\":5}"), toolCall("s2", "echo", "{}")), answer("ok"));

        loop(echo).run("x", new Cancellation());

        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(
                "Invalid arguments for echo: $.text: integer found, string expected. Call it again with"
                        + " arguments that match its schema.",
                messages.get(3).get("content").asText());
        assertEquals(
                "Invalid arguments for echo: $: required property 'text' not found. Call it again with"
                        + " arguments that match its schema.",
                messages.get(4).get("content").asText());
    }

    @Test
    void deniedCallIsNotRunAndTheModelReadsTheReason() throws Exception {
        model.enqueue(calls(toolCall("d1", "edit", "{\"text\":\"rm\"}")), answer("understood"));
        Approver denies = request -> ApprovalDecision.deniedByUser("not on main");

        loop(ApprovalMode.DEFAULT, denies, 100, edit).run("x", new Cancellation());

        assertEquals(List.of(), edit.runs);
        model.takeRequest();
        assertEquals(
                "The edit call was not run: the user denied it and said: not on main",
                model.takeRequest().get("messages").get(3).get("content").asText());
    }

    @Test
    void turnLimitStopsAfterMaxRequestsWithTheHistoryComplete() throws Exception {
        model.enqueue(
                calls(toolCall("t1", "echo", "{\"text\":\"1\"}")), calls(toolCall("t2", "echo", "{\"text\":\"2\"}")));
        AgentLoop loop = loop(ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 2, echo);

        TurnResult result = loop.run("loop", new Cancellation());

        assertEquals(TurnResult.Outcome.TURN_LIMIT, result.outcome());
        assertEquals(2, model.requestCount());
        assertEquals(List.of(), loop.conversation().pendingCalls());
        assertEquals(6, loop.conversation().messages().size());
    }

    @Test
    void aSpentBudgetAnswersTheReplysCallsUnrunAndSendsNoFurtherRequest() throws Exception {
        model.enqueue(reply(
                toolCall("b1", "echo", "{\"text\":\"one\"}"),
                toolCall("b2", "echo", "{\"text\":\"two\"}"),
                finish("tool_calls"),
                usage(40, 7),
                done()));
        AgentLoop loop = loop(echo);
        // Spent once a reply's usage has been reported: the caller's account sees the Usage event first.
        loop.setBudget(() -> !events.ofType(AgentEvent.Usage.class).isEmpty());

        TurnResult result = loop.run("spend", new Cancellation());

        assertEquals(new TurnResult(TurnResult.Outcome.BUDGET_SPENT, "", 1, new TokenUsage(40, 7)), result);
        assertEquals(1, model.requestCount());
        assertEquals(List.of(), echo.runs);
        assertEquals(List.of(), loop.conversation().pendingCalls());
        String refusal = "The echo call was not run: the run reached its spending limit and stopped.";
        assertEquals(
                List.of(
                        new Message.ToolResult("b1", "echo", refusal, true),
                        new Message.ToolResult("b2", "echo", refusal, true)),
                loop.conversation().messages().subList(3, 5));
    }

    @Test
    void anAnswerEndsTheTurnAsAnsweredEvenWithTheBudgetSpent() throws Exception {
        model.enqueue(reply(text("Done"), finish("stop"), usage(12, 3), done()));
        AgentLoop loop = loop(echo);
        loop.setBudget(() -> true);

        TurnResult result = loop.run("hi", new Cancellation());

        assertEquals(new TurnResult(TurnResult.Outcome.ANSWERED, "Done", 1, new TokenUsage(12, 3)), result);
    }

    @Test
    void cancellingMidRoundAnswersEveryCallAndTheNextRequestIsValid() throws Exception {
        TestTools.Blocking slow = new TestTools.Blocking("slow", ToolKind.EXECUTE);
        model.enqueue(calls(
                toolCall("k1", "echo", "{\"text\":\"before\"}"),
                toolCall("k2", "slow", "{\"text\":\"wait\"}"),
                toolCall("k3", "echo", "{\"text\":\"after\"}")));
        AgentLoop loop = loop(echo, slow);
        Cancellation cancel = new Cancellation();

        CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> {
            try {
                return loop.run("cancel me", cancel);
            } catch (ProviderException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(slow.started.await(60, TimeUnit.SECONDS));
        cancel.cancel();
        TurnResult result = turn.get(60, TimeUnit.SECONDS);

        assertEquals(TurnResult.Outcome.CANCELLED, result.outcome());
        assertEquals(1, model.requestCount());
        assertEquals(List.of("before"), echo.runs);

        model.enqueue(answer("fresh start"));
        assertEquals("fresh start", loop.run("next", new Cancellation()).answer());
        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(
                List.of("echo: before", "stopped by cancel", "The user cancelled this call before it started."),
                List.of(
                        messages.get(3).get("content").asText(),
                        messages.get(4).get("content").asText(),
                        messages.get(5).get("content").asText()));
        assertEquals("next", messages.get(6).get("content").asText());
    }

    @Test
    void aFailureMidStreamKeepsTheTextAndTheNextRequestIsValid() throws Exception {
        model.enqueue(reply(text("Partial ans"), toolFragment(0, "x1", "echo", "{\"te")));
        AgentLoop loop = loop(echo);

        assertThrows(ProviderException.class, () -> loop.run("first", new Cancellation()));
        model.enqueue(answer("Recovered."));
        loop.run("again", new Cancellation());

        assertEquals(List.of(), echo.runs);
        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(
                Json.read(
                        "[{\"role\":\"system\",\"content\":\"SYSTEM\"},{\"role\":\"user\",\"content\":\"first\"},"
                                + "{\"role\":\"assistant\",\"content\":\"Partial ans\"},{\"role\":\"user\",\"content\":\"again\"}]"),
                messages);
        assertEquals(
                new AgentEvent.ReplyFailed(
                        "Partial ans",
                        "The reply stream from the OpenAI-compatible server" + " at " + model.host()
                                + " ended before the reply was complete."),
                events.ofType(AgentEvent.ReplyFailed.class).get(0));
    }

    @Test
    void toolCallsCutOffByTheOutputLimitAreAnsweredNotRun() throws Exception {
        model.enqueue(
                reply(toolCall("big", "edit", "{\"text\":\"lorem ips"), finish("length"), done()),
                answer("I will write it in parts."));

        TurnResult result = loop(echo, edit).run("write", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals(List.of(), edit.runs);
        model.takeRequest();
        String refusal =
                model.takeRequest().get("messages").get(3).get("content").asText();
        assertEquals(
                "The edit call was not run: your reply reached the output token limit while writing it, so its"
                        + " arguments may be cut off. Make smaller calls (for example, write a large file in several"
                        + " edits).",
                refusal);
        assertEquals(
                List.of(new AgentEvent.ReplyCutShort(dev.dockhand.core.model.FinishReason.LENGTH)),
                events.ofType(AgentEvent.ReplyCutShort.class));
    }

    @Test
    void switchingProviderMidConversationKeepsTheHistoryValid() throws Exception {
        model.enqueue(calls(toolCall("c1", "echo", "{\"text\":\"one\"}")), answer("done"));
        AgentLoop loop = loop(echo);
        loop.run("first", new Cancellation());

        try (ScriptedModel anthropic = new ScriptedModel()) {
            anthropic.enqueue(new MockResponse()
                    .setHeader("Content-Type", "text/event-stream")
                    .setBody(
                            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n"
                                    + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                                    + "\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n"
                                    + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
                                    + "\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n"
                                    + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"));
            loop.switchModel(
                    Provider.ANTHROPIC.client(anthropic.rootUrl(), "k", Timeouts.DEFAULT, 1024), "claude-test");

            assertEquals("hi", loop.run("second", new Cancellation()).answer());

            JsonNode body = anthropic.takeJson();
            assertEquals(
                    Json.read("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"first\"}]},"
                            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"c1\",\"name\":\"echo\","
                            + "\"input\":{\"text\":\"one\"}}]},"
                            + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"c1\","
                            + "\"content\":\"echo: one\",\"cache_control\":{\"type\":\"ephemeral\"}}]},"
                            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]},"
                            + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"second\","
                            + "\"cache_control\":{\"type\":\"ephemeral\"}}]}]"),
                    body.get("messages"));
            assertEquals("claude-test", body.get("model").asText());
        }
    }

    @Test
    void aCallRepeatedOverSeveralTurnsIsNotALoop() throws Exception {
        AgentLoop loop = loop(echo);
        for (int turn = 1; turn <= 3; turn++) {
            model.enqueue(
                    calls(toolCall("a" + turn, "echo", "{\"text\":\"again\"}")),
                    calls(toolCall("b" + turn, "echo", "{\"text\":\"again\"}")),
                    answer("ok " + turn));

            assertEquals(
                    TurnResult.Outcome.ANSWERED,
                    loop.run("once more", new Cancellation()).outcome());
        }
        assertEquals(6, echo.runs.size());
    }

    @Test
    void theSameCallFiveTimesInARowStopsTheTurnWithTheHistoryValid() throws Exception {
        for (int i = 1; i <= 5; i++) {
            // Same arguments, written differently each time: still the same call.
            model.enqueue(calls(
                    toolCall("same" + i, "echo", i % 2 == 0 ? "{\"text\":\"again\"}" : "{ \"text\": \"again\" }")));
        }
        AgentLoop loop = loop(echo);

        TurnResult result = loop.run("loop", new Cancellation());

        assertEquals(TurnResult.Outcome.LOOP_DETECTED, result.outcome());
        assertEquals(4, echo.runs.size());
        assertEquals(List.of(), loop.conversation().pendingCalls());
        assertEquals(
                List.of(new AgentEvent.LoopDetected("the model called echo with the same arguments 5 times in a"
                        + " row, so the turn was stopped; rephrase the request or give it more to go on.")),
                events.ofType(AgentEvent.LoopDetected.class));
    }

    @Test
    void theSameTextThreeTimesInARowStopsTheTurn() throws Exception {
        AgentLoop loop = loop(echo);
        for (int i = 0; i < 2; i++) {
            model.enqueue(answer("I cannot do that."));
            assertEquals(
                    TurnResult.Outcome.ANSWERED,
                    loop.run("try " + i, new Cancellation()).outcome());
        }
        model.enqueue(answer("I cannot do that."));

        assertEquals(
                TurnResult.Outcome.LOOP_DETECTED,
                loop.run("try again", new Cancellation()).outcome());
    }

    @Test
    void providerServerErrorCarriesTheProvidersMessage() {
        model.enqueue(new MockResponse()
                .setResponseCode(500)
                .setBody("{\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\"}}"));

        ProviderException failure =
                assertThrows(ProviderException.class, () -> loop(echo).run("x", new Cancellation()));

        assertEquals(ProviderException.Kind.SERVER, failure.kind());
        assertEquals(
                "The OpenAI-compatible server at " + model.host() + " answered HTTP 500: The server is overloaded",
                failure.getMessage());
    }

    @Test
    void providerUnauthorizedIsAnAuthenticationFailure() {
        model.enqueue(new MockResponse()
                .setResponseCode(401)
                .setBody("{\"error\":{\"message\":\"Incorrect API key provided: sk-test\"}}"));

        ProviderException failure =
                assertThrows(ProviderException.class, () -> loop(echo).run("x", new Cancellation()));

        assertEquals(ProviderException.Kind.AUTHENTICATION, failure.kind());
        assertEquals(401, failure.httpStatus());
        assertEquals(
                "The OpenAI-compatible server at " + model.host()
                        + " answered HTTP 401: Incorrect API key provided: [redacted]",
                failure.getMessage());
    }
}
