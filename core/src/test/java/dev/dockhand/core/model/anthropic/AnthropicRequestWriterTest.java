package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.testing.WireFormat;
import dev.dockhand.core.tool.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnthropicRequestWriterTest {
    private static final String THINKING =
            "{\"model\":\"m\",\"blocks\":[{\"type\":\"thinking\",\"thinking\":\"Read it.\",\"signature\":\"c2lnLTE=\"},"
                    + "{\"type\":\"redacted_thinking\",\"data\":\"cmVkYWN0ZWQ=\"}]}";
    private static final List<ToolDeclaration> TOOLS = List.of(
            new ToolDeclaration(
                    "read_file",
                    "Read.",
                    Schema.object().required("path", Schema.string("p")).build()),
            new ToolDeclaration("list_directory", "List.", Schema.object().build()));

    /** Two rounds of a tool loop, the second still waiting for the model. */
    private static List<Message> toolLoop(ProviderState first, ProviderState second) {
        return List.of(
                new Message.System("SYSTEM"),
                new Message.User("go"),
                new Message.Assistant(
                        "", List.of(new ToolCall("toolu_1", "read_file", "{\"path\":\"a\"}")), "Read it.", first),
                new Message.ToolResult("toolu_1", "read_file", "A", false),
                new Message.Assistant(
                        "Next.", List.of(new ToolCall("toolu_2", "list_directory", "{}")), "Read it.", second),
                new Message.ToolResult("toolu_2", "list_directory", "B", false));
    }

    private static ObjectNode write(List<Message> messages, Optional<ReasoningEffort> effort, int maxTokens) {
        ObjectNode body = AnthropicRequestWriter.write(new ModelRequest("m", messages, TOOLS, effort), maxTokens);
        // Whatever the case, the API would take it.
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(body));
        return body;
    }

    /** Where the breakpoints are, as JSON pointers. */
    private static List<String> breakpoints(JsonNode body) {
        List<String> marks = new ArrayList<>();
        for (int t = 0; t < body.path("tools").size(); t++) {
            if (body.path("tools").get(t).has("cache_control")) {
                marks.add("/tools/" + t);
            }
        }
        for (int s = 0; s < body.path("system").size(); s++) {
            if (body.path("system").get(s).has("cache_control")) {
                marks.add("/system/" + s);
            }
        }
        JsonNode messages = body.path("messages");
        for (int m = 0; m < messages.size(); m++) {
            JsonNode content = messages.get(m).path("content");
            for (int b = 0; b < content.size(); b++) {
                if (content.get(b).has("cache_control")) {
                    marks.add("/messages/" + m + "/content/" + b);
                }
            }
        }
        return marks;
    }

    @Test
    void marksTheToolsTheSystemPromptThePreviousRequestsEndAndTheNewestBlock() {
        ObjectNode body =
                write(toolLoop(new ProviderState("anthropic", THINKING), ProviderState.NONE), Optional.empty(), 4096);

        assertEquals(
                List.of("/tools/1", "/system/0", "/messages/2/content/0", "/messages/4/content/0"), breakpoints(body));
        assertEquals(Json.read("{\"type\":\"ephemeral\"}"), body.at("/messages/4/content/0/cache_control"));
    }

    @Test
    void theFirstRequestHasTheNewestBlockMarkedOnly() {
        ObjectNode body = write(List.of(new Message.System("SYSTEM"), new Message.User("go")), Optional.empty(), 4096);

        assertEquals(List.of("/tools/1", "/system/0", "/messages/0/content/0"), breakpoints(body));
    }

    @Test
    void marksNothingWhenCachingIsOff() {
        ObjectNode body = AnthropicRequestWriter.write(
                new ModelRequest("m", toolLoop(ProviderState.NONE, ProviderState.NONE), TOOLS), 4096, false);

        assertEquals(List.of(), breakpoints(body));
    }

    @Test
    void eachEffortThinksWithItsBudgetAndLeavesTheAnswerRoom() {
        List<Message> messages = List.of(new Message.User("go"));

        assertEquals(
                Json.read("{\"type\":\"enabled\",\"budget_tokens\":4000}"),
                write(messages, Optional.of(ReasoningEffort.LOW), 4096).get("thinking"));
        assertEquals(
                12_000,
                write(messages, Optional.of(ReasoningEffort.LOW), 4096)
                        .get("max_tokens")
                        .asInt());
        assertEquals(
                18_000,
                write(messages, Optional.of(ReasoningEffort.MEDIUM), 8192)
                        .get("max_tokens")
                        .asInt());
        assertEquals(
                10_000,
                write(messages, Optional.of(ReasoningEffort.MEDIUM), 8192)
                        .at("/thinking/budget_tokens")
                        .asInt());
        assertEquals(
                32_000,
                write(messages, Optional.of(ReasoningEffort.HIGH), 8192)
                        .get("max_tokens")
                        .asInt());
        assertEquals(
                24_000,
                write(messages, Optional.of(ReasoningEffort.HIGH), 8192)
                        .at("/thinking/budget_tokens")
                        .asInt());
        // A larger configured limit is kept.
        assertEquals(
                64_000,
                write(messages, Optional.of(ReasoningEffort.HIGH), 64_000)
                        .get("max_tokens")
                        .asInt());
    }

    @Test
    void noEffortSendsNoThinkingAndTheConfiguredLimit() {
        ObjectNode body = write(List.of(new Message.User("go")), Optional.empty(), 4096);

        assertEquals(false, body.has("thinking"));
        assertEquals(4096, body.get("max_tokens").asInt());
    }

    /** State saved before the reply's order was kept holds thinking blocks alone: they open their turn, as before. */
    @Test
    void everyTurnsThinkingBlocksGoBackFirstInTheirOrderUnchanged() {
        ProviderState first = new ProviderState("anthropic", THINKING);
        ProviderState second = new ProviderState(
                "anthropic",
                "{\"model\":\"m\",\"blocks\":[{\"type\":\"thinking\",\"thinking\":\"List it.\",\"signature\":\"c2lnLTI=\"}]}");

        ObjectNode body = write(toolLoop(first, second), Optional.of(ReasoningEffort.LOW), 4096);

        assertEquals(
                Json.read(
                        """
                [{"type":"thinking","thinking":"Read it.","signature":"c2lnLTE="},
                 {"type":"redacted_thinking","data":"cmVkYWN0ZWQ="},
                 {"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a"}}]
                """),
                body.at("/messages/1/content"));
        assertEquals(
                Json.read(
                        """
                [{"type":"thinking","thinking":"List it.","signature":"c2lnLTI="},
                 {"type":"text","text":"Next."},
                 {"type":"tool_use","id":"toolu_2","name":"list_directory","input":{}}]
                """),
                body.at("/messages/3/content"));
        assertEquals(Json.read("{\"type\":\"enabled\",\"budget_tokens\":4000}"), body.get("thinking"));
    }

    /**
     * A loop begun with another provider carries that provider's state: it is dropped, and since the API refuses
     * thinking on when a tool loop in progress did not open with a thinking block, thinking stays off until it ends.
     */
    @Test
    void stateFromAnotherWireIsDroppedAndThinkingWaitsForTheToolLoopToEnd() {
        ProviderState gemini = new ProviderState("gemini", "{\"signatures\":[\"abc\"]}");

        ObjectNode body = write(toolLoop(gemini, ProviderState.NONE), Optional.of(ReasoningEffort.HIGH), 4096);

        assertEquals(false, body.has("thinking"));
        assertEquals(4096, body.get("max_tokens").asInt());
        assertEquals(
                Json.read(
                        "[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"read_file\",\"input\":{\"path\":\"a\"}}]"),
                body.at("/messages/1/content"));
    }

    /** Without interleaved thinking Claude thinks once, at the start of its turn; later rounds have no thinking. */
    @Test
    void thinkingStaysOnThroughALoopThatOpenedWithIt() {
        ObjectNode body = write(
                toolLoop(new ProviderState("anthropic", THINKING), ProviderState.NONE),
                Optional.of(ReasoningEffort.HIGH),
                4096);

        assertEquals(Json.read("{\"type\":\"enabled\",\"budget_tokens\":24000}"), body.get("thinking"));
        assertEquals(32_000, body.get("max_tokens").asInt());
    }

    @Test
    void aNewPromptAfterAForeignTurnThinksAgain() {
        List<Message> messages = new ArrayList<>(toolLoop(ProviderState.NONE, ProviderState.NONE));
        messages.add(new Message.Assistant("Done.", List.of()));
        messages.add(new Message.User("more"));

        ObjectNode body = write(messages, Optional.of(ReasoningEffort.LOW), 4096);

        assertEquals(Json.read("{\"type\":\"enabled\",\"budget_tokens\":4000}"), body.get("thinking"));
    }

    @Test
    void aTurnOfThinkingAloneIsLeftOut() {
        ObjectNode body = write(
                List.of(
                        new Message.User("go"),
                        new Message.Assistant("", List.of(), "Hmm.", new ProviderState("anthropic", THINKING)),
                        new Message.User("again")),
                Optional.empty(),
                4096);

        assertEquals(
                Json.read(
                        """
                [{"role":"user","content":[{"type":"text","text":"go"},
                  {"type":"text","text":"again","cache_control":{"type":"ephemeral"}}]}]
                """),
                body.get("messages"));
    }

    @Test
    void aDamagedStateReplaysNothing() {
        ObjectNode body = write(
                List.of(
                        new Message.User("go"),
                        new Message.Assistant("Hi.", List.of(), "", new ProviderState("anthropic", "[{not json")),
                        new Message.User("again")),
                Optional.empty(),
                4096);

        assertEquals(Json.read("[{\"type\":\"text\",\"text\":\"Hi.\"}]"), body.at("/messages/1/content"));
    }

    /** A reply's blocks in stream order, with its thinking between its calls, as the stream reader keeps them. */
    private static final String INTERLEAVED =
            """
            {"model":"m","blocks":[{"type":"thinking","thinking":"Read a.","signature":"c2lnLTE="},
             {"type":"text","text":"First a, "},{"type":"tool_use","call":0},
             {"type":"redacted_thinking","data":"cmVkYWN0ZWQ="},
             {"type":"text","text":"then b."},{"type":"tool_use","call":1}]}
            """;

    private static List<Message> interleaved(String text, ProviderState state) {
        return List.of(
                new Message.User("go"),
                new Message.Assistant(
                        text,
                        List.of(
                                new ToolCall("toolu_a", "read_file", "{\"path\":\"a\"}"),
                                new ToolCall("toolu_b", "read_file", "{\"path\":\"b\"}")),
                        "Read a.",
                        state),
                new Message.ToolResult("toolu_a", "read_file", "A", false),
                new Message.ToolResult("toolu_b", "read_file", "B", false));
    }

    @Test
    void aReplysBlocksGoBackInTheOrderItStreamedThem() {
        ObjectNode body = write(
                interleaved("First a, then b.", new ProviderState("anthropic", INTERLEAVED)),
                Optional.of(ReasoningEffort.LOW),
                4096);

        assertEquals(
                Json.read(
                        """
                [{"type":"thinking","thinking":"Read a.","signature":"c2lnLTE="},
                 {"type":"text","text":"First a, "},
                 {"type":"tool_use","id":"toolu_a","name":"read_file","input":{"path":"a"}},
                 {"type":"redacted_thinking","data":"cmVkYWN0ZWQ="},
                 {"type":"text","text":"then b."},
                 {"type":"tool_use","id":"toolu_b","name":"read_file","input":{"path":"b"}}]
                """),
                body.at("/messages/1/content"));
    }

    /** Text that no longer is what the reply streamed cannot be put back in its places: it goes as older state does. */
    @Test
    void anOrderThatNoLongerFitsTheMessageGoesBackAsOlderStateDoes() {
        ObjectNode body = write(
                interleaved("Something else.", new ProviderState("anthropic", INTERLEAVED)),
                Optional.of(ReasoningEffort.LOW),
                4096);

        assertEquals(
                Json.read(
                        """
                [{"type":"thinking","thinking":"Read a.","signature":"c2lnLTE="},
                 {"type":"redacted_thinking","data":"cmVkYWN0ZWQ="},
                 {"type":"text","text":"Something else."},
                 {"type":"tool_use","id":"toolu_a","name":"read_file","input":{"path":"a"}},
                 {"type":"tool_use","id":"toolu_b","name":"read_file","input":{"path":"b"}}]
                """),
                body.at("/messages/1/content"));
    }

    /**
     * A session that thought (a reasoning effort), was stopped in a tool call and is resumed without an effort: the
     * interrupted result and the new prompt share one user turn after the assistant message with thinking, which the
     * API refuses in a request without thinking. No assistant message keeps its thinking then.
     */
    @Test
    void aRequestWithoutThinkingCarriesNoThinkingBlocks() {
        List<Message> messages = List.of(
                new Message.User("go"),
                new Message.Assistant(
                        "Reading a.",
                        List.of(new ToolCall("toolu_a", "read_file", "{\"path\":\"a\"}")),
                        "Read it.",
                        new ProviderState("anthropic", THINKING)),
                new Message.ToolResult("toolu_a", "read_file", "interrupted", true),
                new Message.User("go on"));

        ObjectNode body = write(messages, Optional.empty(), 4096);

        assertEquals(false, body.has("thinking"));
        assertEquals(
                Json.read(
                        """
                [{"type":"text","text":"Reading a."},
                 {"type":"tool_use","id":"toolu_a","name":"read_file","input":{"path":"a"}}]
                """),
                body.at("/messages/1/content"));
    }

    @Test
    void anInterleavedReplyLosesItsThinkingAndKeepsItsOrderWithoutThinking() {
        ObjectNode body = write(
                interleaved("First a, then b.", new ProviderState("anthropic", INTERLEAVED)), Optional.empty(), 4096);

        assertEquals(
                Json.read(
                        """
                [{"type":"text","text":"First a, "},
                 {"type":"tool_use","id":"toolu_a","name":"read_file","input":{"path":"a"}},
                 {"type":"text","text":"then b."},
                 {"type":"tool_use","id":"toolu_b","name":"read_file","input":{"path":"b"}}]
                """),
                body.at("/messages/1/content"));
    }
}
