package dev.dockhand.core.model.anthropic;

import static dev.dockhand.core.model.anthropic.AnthropicLoops.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.testing.RecordedDeltas;
import dev.dockhand.core.testing.ScriptedModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streams real Claude models sent (reproduced in our own fixtures, see {@code providers/SOURCES.md}) read into
 * whole replies, and, for each that calls tools, the full loop: the reply, the tool round, and the next request as the
 * Messages API demands it (checked whole here, and against the API's rules by the scripted server): every tool_use
 * answered once, in order, by a tool_result of the next user turn; the thinking blocks back first, unchanged, with
 * their signatures; the arguments as they were streamed; four cache breakpoints at most.
 */
class AnthropicRecordedStreamsTest {
    private static final String BASH_ARGUMENTS = "{\"command\": \"cd /home/dev/dockhand && ./mvnw -B -o test -pl core"
            + " 2>&1 | tail -100\", \"description\": \"Run the core tests again after the usage fix\"}";
    private static final String HAIKU_THINKING =
            "The user asks for the build version.\n1. Call build_version\n2. Report"
                    + " it\n\nThe tool takes no arguments.";
    private static final String SONNET_THINKING =
            "\n\n\n\nThe fix is in; let me run the module's tests once more to see whether anything else fails:";

    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();
    private final RecordedDeltas recorded = new RecordedDeltas();
    private final List<String> deltas = recorded.text;
    private final List<String> reasoningDeltas = recorded.reasoning;

    @AfterEach
    void stop() {
        server.close();
    }

    private ModelReply stream(String fixture) throws Exception {
        server.enqueue(fixture(fixture));
        return AnthropicLoops.client(server, true).stream(
                new ModelRequest("test-model", List.of(new Message.User("go")), List.of()),
                recorded,
                new Cancellation());
    }

    /**
     * The state a reply of the test's model keeps: its thinking blocks, then the blocks that followed them ({@code
     * after}, each a JSON object: text runs, tool_use places), and the model they are valid for.
     */
    private static ProviderState state(String thinking, String... after) {
        ObjectNode state = Json.object().put("model", "test-model");
        ArrayNode blocks = state.putArray("blocks");
        Json.read(thinking).forEach(blocks::add);
        for (String block : after) {
            blocks.add(Json.read(block));
        }
        return new ProviderState("anthropic", Json.write(state));
    }

    @Test
    void twoNoArgumentCallsOfHaikuComeBackAnsweredInOrder() throws Exception {
        assertEquals(
                new ModelReply(
                        "",
                        List.of(
                                new ToolCall("toolu_01TwinFirstRk3", "list_directory", "{}"),
                                new ToolCall("toolu_01TwinSecondPw9", "list_directory", "{}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(517, 58, 0, 0, 0)),
                        "",
                        ProviderState.NONE),
                stream("haiku45_parallel_no_args"));
        server.takeJson();

        JsonNode next = secondRequest("haiku45_parallel_no_args", Optional.empty(), "list_directory");

        assertEquals(
                expectedSecondRequest(
                        "[]",
                        "",
                        List.of(
                                new ToolCall("toolu_01TwinFirstRk3", "list_directory", "{}"),
                                new ToolCall("toolu_01TwinSecondPw9", "list_directory", "{}")),
                        false),
                next);
    }

    @Test
    void haikusThinkingIsShownAndGoesBackSignedBeforeItsNoArgumentCall() throws Exception {
        String thinking = "[{\"type\":\"thinking\",\"thinking\":" + Json.MAPPER.writeValueAsString(HAIKU_THINKING)
                + ",\"signature\":\"RWhIYWlrdVRoaW5raW5nU2lnbmF0dXJlT25lRm9yRG9ja2hhbmRUZXN0cy9hYmMrZGVm\"}]";
        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("toolu_01BuildVersionNq4", "build_version", "{}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(604, 87, 0, 0, 49)),
                        HAIKU_THINKING,
                        state(thinking, "{\"type\":\"tool_use\",\"call\":0}")),
                stream("haiku45_thinking_no_arg_tool"));
        assertEquals(
                List.of(
                        "The user asks for the build version.\n1",
                        ". Call build_version\n2. Report it\n\nThe tool takes no arguments."),
                reasoningDeltas);
        assertEquals(List.of(), deltas);
        server.takeJson();

        JsonNode next =
                secondRequest("haiku45_thinking_no_arg_tool", Optional.of(ReasoningEffort.MEDIUM), "build_version");

        assertEquals(
                expectedSecondRequest(
                        thinking, "", List.of(new ToolCall("toolu_01BuildVersionNq4", "build_version", "{}")), true),
                next);
    }

    @Test
    void threeCachedParallelReadsCountTheCacheInThePromptAndGoBackAnswered() throws Exception {
        List<ToolCall> calls = List.of(
                new ToolCall(
                        "toolu_01ReadAgentLoopKd2",
                        "Read",
                        "{\"file_path\": \"/home/dev/dockhand/core/src/main/java/dev/dockhand/core/agent/AgentLoop.java\"}"),
                new ToolCall(
                        "toolu_01ReadTokenUsageHz8",
                        "Read",
                        "{\"file_path\": \"/home/dev/dockhand/core/src/main/java/dev/dockhand/core/model/TokenUsage.java\"}"),
                new ToolCall(
                        "toolu_01ReadScriptedModelQ5",
                        "Read",
                        "{\"file_path\":"
                                + " \"/home/dev/dockhand/core/src/test/java/dev/dockhand/core/testing/ScriptedModel.java\"}"));
        // 6 uncached + 412 written to the cache + 30,118 read from it: the prompt was 30,536 tokens, not 6.
        assertEquals(
                new ModelReply(
                        "",
                        calls,
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(30_536, 219, 30_118, 412, 0)),
                        "",
                        ProviderState.NONE),
                stream("sonnet4_parallel3_cached"));
        server.takeJson();

        JsonNode next = secondRequest("sonnet4_parallel3_cached", Optional.empty(), "Read");

        assertEquals(expectedSecondRequest("[]", "", calls, false), next);
    }

    @Test
    void textThenACallInFragmentsGoesBackAsTextThenToolUse() throws Exception {
        String text = "I'll read the build file to see which modules there are.";
        List<ToolCall> calls = List.of(new ToolCall("toolu_01ReadPomFileTq3", "read_file", "{\"path\": \"pom.xml\"}"));
        assertEquals(
                new ModelReply(
                        text,
                        calls,
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(402, 61, 0, 0, 0)),
                        "",
                        ProviderState.NONE),
                stream("sonnet4_text_tool"));
        assertEquals(List.of("I", "'ll read the build file to see which modules there are."), deltas);
        server.takeJson();

        JsonNode next = secondRequest("sonnet4_text_tool", Optional.empty(), "read_file");

        assertEquals(expectedSecondRequest("[]", text, calls, false), next);
    }

    @Test
    void cachedThinkingBeforeABashCallGoesBackSignedAndTheCommandWhole() throws Exception {
        String thinking = "[{\"type\":\"thinking\",\"thinking\":" + Json.MAPPER.writeValueAsString(SONNET_THINKING)
                + ",\"signature\":\"U29ubmV0Rm91clRoaW5raW5nU2lnbmF0dXJlRm9yVGhlQmFzaEZpeHR1cmUvMTIzNDU2Nzg5MCtBQkNERUY=\"}]";
        List<ToolCall> calls = List.of(new ToolCall("toolu_01RunCoreTestsVb6", "Bash", BASH_ARGUMENTS));
        assertEquals(
                new ModelReply(
                        "",
                        calls,
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(48_701, 142, 47_902, 790, 0)),
                        SONNET_THINKING,
                        state(thinking, "{\"type\":\"tool_use\",\"call\":0}")),
                stream("sonnet4_thinking_bash_cached"));
        server.takeJson();

        JsonNode next = secondRequest("sonnet4_thinking_bash_cached", Optional.of(ReasoningEffort.MEDIUM), "Bash");

        assertEquals(expectedSecondRequest(thinking, "", calls, true), next);
    }

    @Test
    void anAnswerAfterRedactedThinkingComesThroughAndItsBlocksGoBackInOrderNextTurn() throws Exception {
        String redacted = "[{\"type\":\"redacted_thinking\",\"data\":"
                + "\"RW5jcnlwdGVkVGhpbmtpbmdPbmVGb3JEb2NraGFuZC9vcGFxdWUrYmxvYi8wMTIzNDU2Nzg5YWJjZGVmZ2hpams=\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"RW5jcnlwdGVkVGhpbmtpbmdUd29Gb3JEb2NraGFuZC9zaG9ydGVyK2Jsb2I9\"}]";
        String answer = "Some of my reasoning was redacted, but the answer is: the build passes.";
        assertEquals(
                new ModelReply(
                        answer,
                        List.of(),
                        FinishReason.STOP,
                        Optional.of(new TokenUsage(88, 176, 0, 0, 0)),
                        "",
                        state(
                                redacted,
                                Json.write(Json.object().put("type", "text").put("text", answer)))),
                stream("sonnet45_redacted_thinking"));
        server.takeJson();
        server.enqueue(fixture("sonnet45_redacted_thinking"), fixture("text"));
        AgentLoop loop = AnthropicLoops.loop(server, workspace, "read_file");
        loop.setReasoningEffort(Optional.of(ReasoningEffort.LOW));

        assertEquals(answer, loop.run("go", new Cancellation()).answer());
        assertEquals("Hello, world.", loop.run("and then?", new Cancellation()).answer());

        server.takeJson();
        ArrayNode expected = Json.MAPPER.createArrayNode();
        expected.addObject()
                .put("role", "user")
                .putArray("content")
                .addObject()
                .put("type", "text")
                .put("text", "go");
        ArrayNode assistant = expected.addObject().put("role", "assistant").putArray("content");
        Json.read(redacted).forEach(assistant::add);
        assistant.addObject().put("type", "text").put("text", answer);
        ObjectNode last =
                expected.addObject().put("role", "user").putArray("content").addObject();
        last.put("type", "text").put("text", "and then?").set("cache_control", mark());
        ((ObjectNode) expected.get(0).get("content").get(0)).set("cache_control", mark());
        assertEquals(expected, server.takeJson().get("messages"));
    }

    /**
     * With interleaved thinking (adaptive thinking has it always) one reply can think, say something, call, think
     * again and call again (hand-written fixture): the next request gives the reply back block by block where it had
     * each, as the API checks the latest assistant message's thinking blocks against their places in the reply; the
     * scripted model refuses it otherwise.
     */
    @Test
    void interleavedThinkingGoesBackBetweenTheCallsWhereTheReplyHadIt() throws Exception {
        String first = "{\"type\":\"thinking\",\"thinking\":\"The module list is in the build file; read it first.\","
                + "\"signature\":\"T3B1c0ludGVybGVhdmVkVGhpbmtpbmdPbmVGb3JEb2NraGFuZC9maXJzdCtibG9jaz0=\"}";
        String second = "{\"type\":\"thinking\",\"thinking\":\"The readme may name modules the build file leaves"
                + " out.\",\"signature\":\"T3B1c0ludGVybGVhdmVkVGhpbmtpbmdUd29Gb3JEb2NraGFuZC9zZWNvbmQrYmxvY2s=\"}";
        String text = "I'll read the build file and the readme.";
        String textBlock = Json.write(Json.object().put("type", "text").put("text", text));
        List<ToolCall> calls = List.of(
                new ToolCall("toolu_01ReadPomInterleavedK7", "read_file", "{\"path\": \"pom.xml\"}"),
                new ToolCall("toolu_01ReadReadmeInterleavedM2", "read_file", "{\"path\": \"README.md\"}"));
        assertEquals(
                new ModelReply(
                        text,
                        calls,
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(22_060, 118, 21_408, 640, 0)),
                        "The module list is in the build file; read it first."
                                + "The readme may name modules the build file leaves out.",
                        state(
                                "[" + first + "]",
                                textBlock,
                                "{\"type\":\"tool_use\",\"call\":0}",
                                second,
                                "{\"type\":\"tool_use\",\"call\":1}")),
                stream("opus46_interleaved_thinking_tools"));
        server.takeJson();

        JsonNode next =
                secondRequest("opus46_interleaved_thinking_tools", Optional.of(ReasoningEffort.MEDIUM), "read_file");

        ArrayNode assistant = Json.MAPPER.createArrayNode();
        assistant.add(Json.read(first));
        assistant.add(Json.read(textBlock));
        assistant.add(toolUse(calls.get(0)));
        assistant.add(Json.read(second));
        assistant.add(toolUse(calls.get(1)));
        assertEquals(expectedSecondRequest(assistant, calls, true), next);
    }

    /**
     * Some Anthropic-compatible servers send zeros in {@code message_start} and the real input usage only with the
     * final output count in {@code message_delta} (hand-written; Anthropic itself repeats it there, as the Haiku
     * fixtures do): the largest figure of each wins.
     */
    @Test
    void inputUsageFirstReportedInMessageDeltaIsCounted() throws Exception {
        server.enqueue(
                AnthropicLoops.sse(
                        """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi."}}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":12,"cache_creation_input_tokens":300,"cache_read_input_tokens":2000,"output_tokens":4}}

                event: message_stop
                data: {"type":"message_stop"}

                """));

        ModelReply reply = AnthropicLoops.client(server, true).stream(
                new ModelRequest("test-model", List.of(new Message.User("go")), List.of()),
                deltas::add,
                new Cancellation());

        assertEquals(Optional.of(new TokenUsage(2_312, 4, 2_000, 300, 0)), reply.usage());
    }

    /** Runs the fixture's reply through the agent loop, a tool round and a text answer; the request after the round. */
    private JsonNode secondRequest(String fixture, Optional<ReasoningEffort> effort, String... tools) throws Exception {
        server.enqueue(fixture(fixture), fixture("text"));
        AgentLoop loop = AnthropicLoops.loop(server, workspace, tools);
        loop.setReasoningEffort(effort);

        TurnResult result = loop.run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals("Hello, world.", result.answer());
        server.takeJson();
        ObjectNode second = (ObjectNode) server.takeJson();
        JsonNode declared = second.remove("tools");
        for (int t = 0; t < declared.size(); t++) {
            // Only the last tool carries a breakpoint: the tools are one cached prefix.
            assertEquals(t == declared.size() - 1, declared.get(t).has("cache_control"), declared.toString());
        }
        return second;
    }

    private static ObjectNode mark() {
        return Json.object().put("type", "ephemeral");
    }

    /**
     * The request after a tool round, as the API demands it: the thinking blocks first, unchanged; the text; each
     * call as a tool_use with its arguments parsed; one tool_result per call, in order, in the next user turn;
     * breakpoints on the system prompt, on the turn the first request ended with and on the newest block.
     */
    private static JsonNode expectedSecondRequest(
            String thinkingBlocks, String text, List<ToolCall> calls, boolean thinking) {
        ArrayNode assistant = Json.MAPPER.createArrayNode();
        Json.read(thinkingBlocks).forEach(assistant::add);
        if (!text.isEmpty()) {
            assistant.addObject().put("type", "text").put("text", text);
        }
        calls.forEach(call -> assistant.add(toolUse(call)));
        return expectedSecondRequest(assistant, calls, thinking);
    }

    /** The request after a tool round whose assistant turn is {@code assistant}, block by block. */
    private static JsonNode expectedSecondRequest(ArrayNode assistant, List<ToolCall> calls, boolean thinking) {
        ObjectNode body = Json.object()
                .put("model", "test-model")
                .put("max_tokens", thinking ? 18_000 : 4096)
                .put("stream", true);
        if (thinking) {
            body.putObject("thinking").put("type", "enabled").put("budget_tokens", 10_000);
        }
        body.putArray("system")
                .addObject()
                .put("type", "text")
                .put("text", "SYSTEM")
                .set("cache_control", mark());
        ArrayNode messages = body.putArray("messages");
        messages.addObject()
                .put("role", "user")
                .putArray("content")
                .addObject()
                .put("type", "text")
                .put("text", "go")
                .set("cache_control", mark());
        messages.addObject().put("role", "assistant").set("content", assistant);
        ArrayNode results = messages.addObject().put("role", "user").putArray("content");
        for (ToolCall call : calls) {
            results.addObject()
                    .put("type", "tool_result")
                    .put("tool_use_id", call.id())
                    .put("content", Json.write(Json.read(call.arguments())));
        }
        ((ObjectNode) results.get(results.size() - 1)).set("cache_control", mark());
        return body;
    }

    private static ObjectNode toolUse(ToolCall call) {
        ObjectNode block =
                Json.object().put("type", "tool_use").put("id", call.id()).put("name", call.name());
        block.set("input", Json.read(call.arguments()));
        return block;
    }
}
