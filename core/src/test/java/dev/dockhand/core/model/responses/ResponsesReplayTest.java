package dev.dockhand.core.model.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.RecordedDeltas;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Responses streams of real models, reproduced in this package's fixtures (see providers/SOURCES.md): what each
 * reply is made of, and, through the agent loop, the next request, which must answer every call once and give back
 * each reasoning item, encrypted, ahead of the calls it led to, as the API needs with {@code store: false}. The
 * scripted model refuses any request the real API would (ResponsesRules).
 */
class ResponsesReplayTest {
    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();
    private final RecordedDeltas recorded = new RecordedDeltas();
    private final List<String> text = recorded.text;
    private final List<String> reasoning = recorded.reasoning;

    @AfterEach
    void stop() {
        server.close();
    }

    static MockResponse fixture(String name) {
        return ProviderFixtures.stream("openai-responses", name);
    }

    private ModelReply replay(String name, String model) throws Exception {
        server.enqueue(fixture(name));
        ResponsesClient client = new ResponsesClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT);
        return client.stream(
                new ModelRequest(model, List.of(new Message.User("go")), List.of()), recorded, new Cancellation());
    }

    /**
     * Runs one turn whose first reply is the fixture and whose second is a plain answer, offering tools of the given
     * names; returns the second request's input.
     */
    private JsonNode inputAfterToolRound(String fixture, String model, String... tools) throws Exception {
        server.enqueue(fixture(fixture), fixture("text"));
        List<AnyArguments> offered = new ArrayList<>();
        for (String tool : tools) {
            offered.add(new AnyArguments(tool));
        }
        ToolRegistry registry = new ToolRegistry(offered);
        EventRecorder events = new EventRecorder();
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                events);
        AgentLoop loop = new AgentLoop(
                new ResponsesClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT),
                model,
                registry.declarations(),
                scheduler,
                new Conversation("SYSTEM"),
                10,
                events);

        TurnResult result = loop.run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals("Hello, world.", result.answer());
        server.takeJson();
        return server.takeJson().get("input");
    }

    @Test
    void gpt4oParallelCallsComeBackAnsweredInOrder() throws Exception {
        JsonNode input = inputAfterToolRound("gpt4o_parallel2", "gpt-4o", "add", "multiply");

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"type":"function_call","call_id":"call_4o_add","name":"add","arguments":"{\\"a\\":2,\\"b\\":3}"},
                         {"type":"function_call","call_id":"call_4o_mul","name":"multiply",
                          "arguments":"{\\"a\\":2,\\"b\\":3}"},
                         {"type":"function_call_output","call_id":"call_4o_add","output":"ran add {\\"a\\":2,\\"b\\":3}"},
                         {"type":"function_call_output","call_id":"call_4o_mul",
                          "output":"ran multiply {\\"a\\":2,\\"b\\":3}"}]
                        """),
                input);
    }

    @Test
    void gpt4oParallelReply() throws Exception {
        ModelReply reply = replay("gpt4o_parallel2", "gpt-4o");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(
                                new ToolCall("call_4o_add", "add", "{\"a\":2,\"b\":3}"),
                                new ToolCall("call_4o_mul", "multiply", "{\"a\":2,\"b\":3}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(104, 51, 0, 0, 0)),
                        "",
                        ProviderState.NONE),
                reply);
    }

    /**
     * gpt-5 asked without the encrypted include sends a reasoning item that cannot go back with store:false; it is
     * left out, and the calls go back alone.
     */
    @Test
    void gpt5ReasoningWithoutEncryptedContentIsNotReplayed() throws Exception {
        ModelReply reply = replay("gpt5_parallel2", "gpt-5");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(
                                new ToolCall("call_5p_add", "add", "{\"a\":2,\"b\":3}"),
                                new ToolCall("call_5p_mul", "multiply", "{\"a\":2,\"b\":3}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(109, 223, 0, 0, 128)),
                        "",
                        ProviderState.NONE),
                reply);
    }

    @Test
    void gpt5ParallelCallsComeBackWithoutTheUnreplayableReasoning() throws Exception {
        JsonNode input = inputAfterToolRound("gpt5_parallel2", "gpt-5", "add", "multiply");

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"type":"function_call","call_id":"call_5p_add","name":"add","arguments":"{\\"a\\":2,\\"b\\":3}"},
                         {"type":"function_call","call_id":"call_5p_mul","name":"multiply",
                          "arguments":"{\\"a\\":2,\\"b\\":3}"},
                         {"type":"function_call_output","call_id":"call_5p_add","output":"ran add {\\"a\\":2,\\"b\\":3}"},
                         {"type":"function_call_output","call_id":"call_5p_mul",
                          "output":"ran multiply {\\"a\\":2,\\"b\\":3}"}]
                        """),
                input);
    }

    @Test
    void gpt5SummaryStreamsAsReasoningAndTheFinishedItemIsKept() throws Exception {
        ModelReply reply = replay("gpt5_summary_encrypted_tool", "gpt-5");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("call_5s", "weather", "{\"location\":\"Florence, Italy\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(63, 121, 0, 0, 64)),
                        "**Checking the weather**\n\nI should call the weather tool.",
                        new ProviderState(
                                "openai-responses",
                                Json.write(
                                        Json.read(
                                                """
                                        {"model":"gpt-5","items":[{"id":"rs_5s","type":"reasoning","content":[],
                                          "encrypted_content":"gAAAAABsketch-done-5s-longer==",
                                          "summary":[{"type":"summary_text",
                                           "text":"**Checking the weather**\\n\\nI should call the weather tool."}]},
                                         {"type":"function_call","call_id":"call_5s"}]}
                                        """)))),
                reply);
        assertEquals(List.of("**Checking the ", "weather**\n\n", "I should call ", "the weather tool."), reasoning);
    }

    @Test
    void gpt5EncryptedReasoningGoesBackBeforeItsCall() throws Exception {
        JsonNode input = inputAfterToolRound("gpt5_summary_encrypted_tool", "gpt-5", "weather");

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"id":"rs_5s","type":"reasoning","content":[],
                          "encrypted_content":"gAAAAABsketch-done-5s-longer==",
                          "summary":[{"type":"summary_text",
                           "text":"**Checking the weather**\\n\\nI should call the weather tool."}]},
                         {"type":"function_call","call_id":"call_5s","name":"weather",
                          "arguments":"{\\"location\\":\\"Florence, Italy\\"}"},
                         {"type":"function_call_output","call_id":"call_5s",
                          "output":"ran weather {\\"location\\":\\"Florence, Italy\\"}"}]
                        """),
                input);
    }

    @Test
    void codexMaxStreamWithoutEventLinesReadsAlike() throws Exception {
        ModelReply reply = replay("gpt51codexmax_summary_encrypted", "gpt-5.1-codex-max");

        assertEquals(
                List.of(new ToolCall("call_cx", "calculator", "{\"a\":12,\"b\":7,\"op\":\"add\"}")), reply.toolCalls());
        assertEquals("**Adding step by step**\n\nI will use the calculator.", reply.reasoning());
        assertEquals(Optional.of(new TokenUsage(134, 28, 0, 0, 0)), reply.usage());
    }

    @Test
    void codexMaxEncryptedReasoningGoesBackBeforeItsCall() throws Exception {
        JsonNode input = inputAfterToolRound("gpt51codexmax_summary_encrypted", "gpt-5.1-codex-max", "calculator");

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"id":"rs_cx","type":"reasoning","encrypted_content":"gAAAAABsketch-done-cx-longer==",
                          "summary":[{"type":"summary_text",
                           "text":"**Adding step by step**\\n\\nI will use the calculator."}]},
                         {"type":"function_call","call_id":"call_cx","name":"calculator",
                          "arguments":"{\\"a\\":12,\\"b\\":7,\\"op\\":\\"add\\"}"},
                         {"type":"function_call_output","call_id":"call_cx",
                          "output":"ran calculator {\\"a\\":12,\\"b\\":7,\\"op\\":\\"add\\"}"}]
                        """),
                input);
    }

    @Test
    void gpt55CommentaryIsTextAndKeepsItsPhase() throws Exception {
        ModelReply reply = replay("gpt55_commentary_tool", "gpt-5.5");

        assertEquals("I’ll look up the capital.", reply.text());
        assertEquals(List.of("I", "’ll look", " up the", " capital."), text);
        assertEquals(
                List.of(new ToolCall("call_55", "get_capital", "{\"country\":\"PotatoLand\"}")), reply.toolCalls());
        // cache_write_tokens is reported, and zero.
        assertEquals(Optional.of(new TokenUsage(63, 69, 0, 0, 26)), reply.usage());
        assertEquals("", reply.reasoning());
    }

    @Test
    void gpt55ReasoningCommentaryAndCallGoBackInTheirOrder() throws Exception {
        JsonNode input = inputAfterToolRound("gpt55_commentary_tool", "gpt-5.5", "get_capital");

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"id":"rs_55","type":"reasoning","content":[],
                          "encrypted_content":"gAAAAABsketch-done-55-longer==","summary":[]},
                         {"type":"message","role":"assistant",
                          "content":[{"type":"output_text","text":"I’ll look up the capital."}],"phase":"commentary"},
                         {"type":"function_call","call_id":"call_55","name":"get_capital",
                          "arguments":"{\\"country\\":\\"PotatoLand\\"}"},
                         {"type":"function_call_output","call_id":"call_55",
                          "output":"ran get_capital {\\"country\\":\\"PotatoLand\\"}"}]
                        """),
                input);
    }

    @Test
    void grokSendsTheWholeCallInTheAddedItemAndCountsCachedTokens() throws Exception {
        ModelReply reply = replay("grok4fast_cached_tool", "grok-4-fast-reasoning");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall(
                                "call_91827364",
                                "getWeather",
                                "{\"location\":\"San Francisco\",\"unit\":\"fahrenheit\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(391, 235, 390, 0, 198)),
                        "",
                        ProviderState.NONE),
                reply);
    }

    @Test
    void grokCallGoesBackAnswered() throws Exception {
        JsonNode input = inputAfterToolRound("grok4fast_cached_tool", "grok-4-fast-reasoning", "getWeather");

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"type":"function_call","call_id":"call_91827364","name":"getWeather",
                          "arguments":"{\\"location\\":\\"San Francisco\\",\\"unit\\":\\"fahrenheit\\"}"},
                         {"type":"function_call_output","call_id":"call_91827364",
                          "output":"ran getWeather {\\"location\\":\\"San Francisco\\",\\"unit\\":\\"fahrenheit\\"}"}]
                        """),
                input);
    }

    /** A tool of any name that takes any object and answers "ran NAME ARGUMENTS". */
    static final class AnyArguments implements Tool<ObjectNode> {
        private final String name;

        AnyArguments(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "Test tool " + name + ".";
        }

        @Override
        public ObjectNode parameterSchema() {
            return Json.object().put("type", "object");
        }

        @Override
        public ToolKind kind() {
            return ToolKind.READ;
        }

        @Override
        public Class<ObjectNode> paramsType() {
            return ObjectNode.class;
        }

        @Override
        public String summarize(ObjectNode params) {
            return params.toString();
        }

        @Override
        public ToolResult execute(ObjectNode params, ToolContext context) {
            return ToolResult.success("ran " + name + " " + params, "ran");
        }
    }
}
