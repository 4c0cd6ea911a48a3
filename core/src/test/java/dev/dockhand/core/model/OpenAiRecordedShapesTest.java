package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.RecordedDeltas;
import dev.dockhand.core.testing.ScriptedModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAI-compatible client against the shapes real servers stream (each fixture reproduces a recording named in
 * {@code providers/SOURCES.md}): DeepSeek's and xAI's {@code reasoning_content}, Groq's {@code reasoning} with its
 * channel, OpenRouter's {@code reasoning_details}, Mistral's calls without an index, gpt-4o's parallel calls and usage
 * chunk. Each reply is checked whole (usage as each server counts it); each tool call is then driven through the agent
 * loop, and the next request is checked against what that API demands back, while the scripted server refuses it as
 * the API would (DeepSeek: no tool-call message without its {@code reasoning_content}).
 */
class OpenAiRecordedShapesTest {
    private static final String README_READ =
            "{\"role\":\"tool\",\"tool_call_id\":\"%s\",\"content\":\"contents of README.md\"}";

    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();
    private final RecordedDeltas recorded = new RecordedDeltas();
    private final List<String> text = recorded.text;
    private final List<String> reasoning = recorded.reasoning;

    @AfterEach
    void stop() {
        server.assertNoViolations();
        server.close();
    }

    private static MockResponse fixture(String name) {
        return ProviderFixtures.stream("openai", name);
    }

    private ModelReply replay(String fixture, String model) throws ProviderException {
        server.enqueue(fixture(fixture));
        return new OpenAiClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT)
                .stream(
                        new ModelRequest(model, List.of(new Message.User("go")), List.of()),
                        recorded,
                        new Cancellation());
    }

    private static ProviderState state(String json) {
        return new ProviderState("openai", Json.write(Json.read(json)));
    }

    /**
     * Runs one turn with {@code model}: the fixture's tool calls, read_file's answers, then a text reply. Returns the
     * second request's messages after the system prompt and the user's message.
     */
    private JsonNode toolRound(String fixture, String model, EventRecorder events) throws Exception {
        server.enqueue(fixture(fixture), fixture("text"));
        AgentLoop loop = ReadFileLoop.of(
                workspace,
                new OpenAiClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT),
                model,
                new Conversation("SYSTEM"),
                10,
                events);

        TurnResult result = loop.run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome(), String.valueOf(result));
        assertEquals("Hello, world.", result.answer());
        server.takeJson();
        JsonNode messages = server.takeJson().get("messages");
        assertEquals(Json.read("{\"role\":\"user\",\"content\":\"go\"}"), messages.get(1));
        ArrayNode after = Json.MAPPER.createArrayNode();
        for (int i = 2; i < messages.size(); i++) {
            after.add(messages.get(i));
        }
        return after;
    }

    private static JsonNode json(String text) {
        return Json.read(text);
    }

    // DeepSeek reasoner (recording deepseek-reasoner-tool)

    private static final String DEEPSEEK_REASONING =
            "The user wants the README. I should call read_file with path \"README.md\".";

    @Test
    void deepSeekStreamsReasoningContentApartAndCountsTheCacheHitsAndReasoning() throws Exception {
        ModelReply reply = replay("deepseek_reasoner_tool", "deepseek-reasoner");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("call_00_dockhandDsReadme01", "read_file", "{\"path\": \"README.md\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(339, 83, 320, 0, 39)),
                        DEEPSEEK_REASONING,
                        state("{\"model\":\"deepseek-reasoner\",\"field\":\"reasoning_content\"}")),
                reply);
        assertEquals(DEEPSEEK_REASONING, String.join("", reasoning));
        assertEquals(12, reasoning.size());
        assertEquals(List.of(), text);
    }

    @Test
    void deepSeekGetsTheReasoningContentOfItsToolCallMessageBackInTheNextRequest() throws Exception {
        EventRecorder events = new EventRecorder();

        JsonNode sent = toolRound("deepseek_reasoner_tool", "deepseek-reasoner", events);

        assertEquals(
                json("[{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":"
                        + Json.write(DEEPSEEK_REASONING) + ",\"tool_calls\":[{\"id\":\"call_00_dockhandDsReadme01\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"read_file\","
                        + "\"arguments\":\"{\\\"path\\\": \\\"README.md\\\"}\"}}]},"
                        + README_READ.formatted("call_00_dockhandDsReadme01") + "]"),
                sent);
        assertEquals(
                DEEPSEEK_REASONING,
                String.join(
                        "",
                        events.ofType(AgentEvent.ReasoningDelta.class).stream()
                                .map(AgentEvent.ReasoningDelta::text)
                                .toList()));
    }

    /**
     * DeepSeek's V4 models want the reasoning of every tool-call message back in every later request, not only in
     * its own turn: the scripted server refuses the second turn's request if the first turn's call lost it.
     */
    @Test
    void deepSeekKeepsGettingAToolCallsReasoningInLaterTurns() throws Exception {
        server.enqueue(fixture("deepseek_reasoner_tool"), fixture("text"), fixture("text"));
        AgentLoop loop = ReadFileLoop.of(
                workspace, new OpenAiClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT), "deepseek-v4-pro");

        loop.run("go", new Cancellation());
        TurnResult second = loop.run("and now?", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, second.outcome(), String.valueOf(second));
        server.takeJson();
        server.takeJson();
        JsonNode third = server.takeJson().get("messages");
        assertEquals(
                List.of(DEEPSEEK_REASONING, ""),
                List.of(
                        third.get(2).path("reasoning_content").asText(),
                        third.get(4).path("reasoning_content").asText()));
        assertEquals(Json.read("{\"role\":\"user\",\"content\":\"and now?\"}"), third.get(5));
    }

    // xAI grok-3-mini (recording grok3mini-reasoning-tool)

    private static final String GROK_REASONING =
            "First, the user asks for the README. I have a read_file tool, so I call it with the path README.md.";

    /** xAI's completion_tokens leaves the reasoning out (26 + 227 + 307 = 560 total): output is 26 + 227. */
    @Test
    void grokCountsItsReasoningTokensAsOutputOnceThoughCompletionTokensLeavesThemOut() throws Exception {
        ModelReply reply = replay("grok3mini_reasoning_tool", "grok-3-mini");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("call_31415926", "read_file", "{\"path\":\"README.md\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(307, 253, 306, 0, 227)),
                        GROK_REASONING,
                        state("{\"model\":\"grok-3-mini\",\"field\":\"reasoning_content\"}")),
                reply);
        assertEquals(GROK_REASONING, String.join("", reasoning));
        assertEquals(List.of(), text);
    }

    @Test
    void grokGetsItsReasoningContentBackOnTheToolCallMessage() throws Exception {
        JsonNode sent = toolRound("grok3mini_reasoning_tool", "grok-3-mini", new EventRecorder());

        assertEquals(
                json("[{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":" + Json.write(GROK_REASONING)
                        + ",\"tool_calls\":[{\"id\":\"call_31415926\",\"type\":\"function\",\"function\":"
                        + "{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"README.md\\\"}\"}}]},"
                        + README_READ.formatted("call_31415926") + "]"),
                sent);
    }

    // Groq gpt-oss-120b (recording groq-gptoss-reasoning-tool)

    private static final String GROQ_REASONING = "We need to read the file. Call read_file with path \"README.md\".";

    @Test
    void groqStreamsReasoningFromItsReasoningFieldWithCompletionTokensIncludingIt() throws Exception {
        ModelReply reply = replay("groq_gptoss_reasoning_tool", "openai/gpt-oss-120b");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall(
                                "fc_0c8f6a2e-5b1d-4e3a-9f70-1d2c3b4a5e6f", "read_file", "{\"path\":\"README.md\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(304, 49, 0, 0, 23)),
                        GROQ_REASONING,
                        state("{\"model\":\"openai/gpt-oss-120b\",\"field\":\"reasoning\"}")),
                reply);
        assertEquals(GROQ_REASONING, String.join("", reasoning));
    }

    /** Groq refuses reasoning_content outright, so its reasoning goes back in the field it came in. */
    @Test
    void groqGetsItsReasoningBackInItsOwnFieldNotAsReasoningContent() throws Exception {
        JsonNode sent = toolRound("groq_gptoss_reasoning_tool", "openai/gpt-oss-120b", new EventRecorder());

        assertEquals(
                json("[{\"role\":\"assistant\",\"content\":null,\"reasoning\":" + Json.write(GROQ_REASONING)
                        + ",\"tool_calls\":[{\"id\":\"fc_0c8f6a2e-5b1d-4e3a-9f70-1d2c3b4a5e6f\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"README.md\\\"}\"}}]},"
                        + README_READ.formatted("fc_0c8f6a2e-5b1d-4e3a-9f70-1d2c3b4a5e6f") + "]"),
                sent);
    }

    // OpenRouter reasoning_details (hand-written from OpenRouter's reasoning-tokens guide)

    private static final String OPENROUTER_DETAILS = "[{\"type\":\"reasoning.text\",\"text\":\"I should read the README"
            + " first.\",\"format\":\"anthropic-claude-v1\",\"index\":0,\"signature\":\"c2lnbmVkLWJ5LWRvY2toYW5kLXRlc3Q=\"},"
            + "{\"type\":\"reasoning.encrypted\",\"data\":\"ZW5jcnlwdGVkLWJ5LWRvY2toYW5k\","
            + "\"format\":\"anthropic-claude-v1\",\"index\":1}]";

    @Test
    void openRouterShowsItsReasoningOnceAndMergesTheDetailsItMustGetBack() throws Exception {
        ModelReply reply = replay("openrouter_reasoning_details_tool", "anthropic/claude-sonnet-4");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("toolu_01DockhandOpenRouter", "read_file", "{\"path\": \"README.md\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(612, 95, 0, 0, 31)),
                        "I should read the README first.",
                        state("{\"model\":\"anthropic/claude-sonnet-4\",\"field\":\"reasoning\",\"details\":"
                                + OPENROUTER_DETAILS + "}")),
                reply);
        assertEquals(List.of("I", " should", " read", " the", " README", " first."), reasoning);
    }

    @Test
    void openRouterGetsItsReasoningDetailsBackUnchanged() throws Exception {
        JsonNode sent =
                toolRound("openrouter_reasoning_details_tool", "anthropic/claude-sonnet-4", new EventRecorder());

        assertEquals(
                json("[{\"role\":\"assistant\",\"content\":null,\"reasoning_details\":" + OPENROUTER_DETAILS
                        + ",\"tool_calls\":[{\"id\":\"toolu_01DockhandOpenRouter\",\"type\":\"function\",\"function\":"
                        + "{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\": \\\"README.md\\\"}\"}}]},"
                        + README_READ.formatted("toolu_01DockhandOpenRouter") + "]"),
                sent);
    }

    // Mistral (recording mistral-noindex-tool)

    @Test
    void mistralsCallWithoutAnIndexIsAssembledWithItsOwnId() throws Exception {
        ModelReply reply = replay("mistral_noindex_tool", "mistral-small-latest");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("Rd7mQx2Kp", "read_file", "{\"path\": \"README.md\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(124, 22))),
                reply);
    }

    @Test
    void mistralsNineCharacterIdGoesBackUnchangedOnTheCallAndItsResult() throws Exception {
        // Mistral checks that results name its own ids, which have exactly nine characters.
        assertEquals(
                json("[{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"Rd7mQx2Kp\",\"type\":"
                        + "\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":"
                        + "\"{\\\"path\\\": \\\"README.md\\\"}\"}}]}," + README_READ.formatted("Rd7mQx2Kp") + "]"),
                toolRound("mistral_noindex_tool", "mistral-small-latest", new EventRecorder()));
    }

    // OpenAI gpt-4o (recording gpt4o-parallel2-usage)

    @Test
    void gpt4oParallelCallsAreAssembledByIndexWithTheUsageChunkThatFollows() throws Exception {
        ModelReply reply = replay("gpt4o_parallel2_usage", "gpt-4o-2024-08-06");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(
                                new ToolCall("call_Q1w2E3r4T5y6U7i8O9p0Aa", "read_file", "{\"path\": \"a.txt\"}"),
                                new ToolCall("call_Z9x8C7v6B5n4M3l2K1j0Hh", "read_file", "{\"path\": \"b.txt\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(149, 60, 0, 0, 0))),
                reply);
    }

    @Test
    void gpt4oGetsBothParallelCallsAnsweredOnceInOrder() throws Exception {
        JsonNode sent = toolRound("gpt4o_parallel2_usage", "gpt-4o-2024-08-06", new EventRecorder());

        assertEquals(
                json("[{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                        + "{\"id\":\"call_Q1w2E3r4T5y6U7i8O9p0Aa\",\"type\":\"function\",\"function\":{\"name\":"
                        + "\"read_file\",\"arguments\":\"{\\\"path\\\": \\\"a.txt\\\"}\"}},"
                        + "{\"id\":\"call_Z9x8C7v6B5n4M3l2K1j0Hh\",\"type\":\"function\",\"function\":{\"name\":"
                        + "\"read_file\",\"arguments\":\"{\\\"path\\\": \\\"b.txt\\\"}\"}}]},"
                        + "{\"role\":\"tool\",\"tool_call_id\":\"call_Q1w2E3r4T5y6U7i8O9p0Aa\","
                        + "\"content\":\"contents of a.txt\"},"
                        + "{\"role\":\"tool\",\"tool_call_id\":\"call_Z9x8C7v6B5n4M3l2K1j0Hh\","
                        + "\"content\":\"contents of b.txt\"}]"),
                sent);
    }

    // Replay across models and wires

    /**
     * A tool-call message another provider wrote (here Anthropic, with its thinking) goes to DeepSeek with an empty
     * reasoning_content: DeepSeek refuses it without the field, and another model's thoughts are not DeepSeek's own.
     */
    @Test
    void deepSeekGetsAnEmptyReasoningContentForAToolCallFromAnotherProvider() throws Exception {
        server.enqueue(fixture("text"));
        List<Message> history = List.of(
                new Message.User("go"),
                new Message.Assistant(
                        "",
                        List.of(new ToolCall("toolu_1", "read_file", "{\"path\":\"a\"}")),
                        "Claude's own thinking",
                        new ProviderState("anthropic", "[{\"type\":\"thinking\",\"signature\":\"sig\"}]")),
                new Message.ToolResult("toolu_1", "read_file", "A", false));

        new OpenAiClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT)
                .stream(new ModelRequest("deepseek-reasoner", history, List.of()), delta -> {}, new Cancellation());

        assertEquals(
                json("{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\",\"tool_calls\":["
                        + "{\"id\":\"toolu_1\",\"type\":\"function\",\"function\":{\"name\":\"read_file\","
                        + "\"arguments\":\"{\\\"path\\\":\\\"a\\\"}\"}}]}"),
                server.takeJson().get("messages").get(1));
    }

    /** Reasoning goes back only to the model that wrote it: Groq refuses fields a model does not know. */
    @Test
    void reasoningIsDroppedWhenTheConversationMovesToAnotherModel() throws Exception {
        server.enqueue(fixture("text"));
        List<Message> history = List.of(
                new Message.User("go"),
                new Message.Assistant(
                        "Reading.",
                        List.of(new ToolCall("fc_1", "read_file", "{\"path\":\"a\"}")),
                        "gpt-oss thinking",
                        state("{\"model\":\"openai/gpt-oss-120b\",\"field\":\"reasoning\"}")),
                new Message.ToolResult("fc_1", "read_file", "A", false));

        new OpenAiClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT)
                .stream(
                        new ModelRequest("moonshotai/kimi-k2-instruct", history, List.of()),
                        delta -> {},
                        new Cancellation());

        assertEquals(
                json("{\"role\":\"assistant\",\"content\":\"Reading.\",\"tool_calls\":[{\"id\":\"fc_1\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"read_file\","
                        + "\"arguments\":\"{\\\"path\\\":\\\"a\\\"}\"}}]}"),
                server.takeJson().get("messages").get(1));
    }
}
