package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ollama.OllamaClient;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.RecordedDeltas;
import dev.dockhand.core.testing.ScriptedModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Ollama client against the shapes real servers send (each fixture reproduces a recording named in
 * {@code providers/SOURCES.md}): gpt-oss thinking beside a call with an id, five calls in one object, a long text
 * stream. Tool calls are driven through the agent loop and the next request checked whole; the scripted server refuses
 * it as Ollama would (and when a call is left unanswered).
 */
class OllamaRecordedShapesTest {
    private static final String THINKING = "The user wants the README. Use read_file.";

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
        return ProviderFixtures.stream("ollama", name);
    }

    private OllamaClient client() {
        return new OllamaClient(server.rootUrl(), Timeouts.DEFAULT);
    }

    private ModelReply send(ModelRequest request) throws ProviderException {
        return client().stream(request, recorded, new Cancellation());
    }

    private ModelReply replay(String fixture, String model) throws ProviderException {
        server.enqueue(fixture(fixture));
        return send(new ModelRequest(model, List.of(new Message.User("go")), List.of()));
    }

    /** Runs one turn: the fixture's calls, read_file's answers, a text reply; returns the second request, no tools. */
    private ObjectNode toolRound(String fixture, String model, Optional<ReasoningEffort> effort) throws Exception {
        server.enqueue(fixture(fixture), fixture("text"));
        AgentLoop loop = ReadFileLoop.of(workspace, client(), model);
        loop.setReasoningEffort(effort);

        TurnResult result = loop.run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome(), String.valueOf(result));
        assertEquals("Hello, world.", result.answer());
        server.takeJson();
        ObjectNode second = (ObjectNode) server.takeJson();
        second.remove("tools");
        return second;
    }

    @Test
    void gptOssThinkingIsReasoningAndTheCallKeepsItsId() throws Exception {
        ModelReply reply = replay("cloud_gptoss_think_tool", "gpt-oss:120b");

        assertEquals(
                new ModelReply(
                        "",
                        List.of(new ToolCall("call_dh7k2m9q", "read_file", "{\"path\":\"README.md\"}")),
                        FinishReason.TOOL_CALLS,
                        Optional.of(new TokenUsage(145, 44)),
                        THINKING,
                        new ProviderState("ollama", "{\"model\":\"gpt-oss:120b\"}")),
                reply);
        assertEquals(List.of(THINKING), reasoning);
        assertEquals(List.of(), text);
    }

    /** gpt-oss takes its effort as a level, and needs its thinking back before the call it led to. */
    @Test
    void gptOssGetsItsThinkingBackOnTheToolCallMessageAndTheEffortAsAThinkLevel() throws Exception {
        ObjectNode second = toolRound("cloud_gptoss_think_tool", "gpt-oss:120b", Optional.of(ReasoningEffort.HIGH));

        assertEquals(
                Json.read(
                        """
                        {"model":"gpt-oss:120b","stream":true,"think":"high",
                         "messages":[{"role":"system","content":"SYSTEM"},{"role":"user","content":"go"},
                          {"role":"assistant","content":"","thinking":"The user wants the README. Use read_file.",
                           "tool_calls":[{"function":{"name":"read_file","arguments":{"path":"README.md"}}}]},
                          {"role":"tool","tool_name":"read_file","content":"contents of README.md"}]}
                        """),
                second);
    }

    @Test
    void everyOneOfFiveCallsInOneObjectIsAnsweredOnceInOrder() throws Exception {
        ObjectNode second = toolRound("llama32_parallel5", "llama3.2", Optional.empty());

        JsonNode messages = second.get("messages");
        assertEquals(
                Json.read(
                        """
                        {"role":"assistant","content":"","tool_calls":[
                          {"function":{"name":"read_file","arguments":{"path":"a.txt"}}},
                          {"function":{"name":"read_file","arguments":{"path":"b.txt"}}},
                          {"function":{"name":"no_such_tool","arguments":{"path":"c.txt"}}},
                          {"function":{"name":"read_file","arguments":{}}},
                          {"function":{"name":"read_file","arguments":{"path":"e.txt"}}}]}
                        """),
                messages.get(2));
        List<String> answers = new ArrayList<>();
        for (int i = 3; i < messages.size(); i++) {
            answers.add(messages.get(i).path("role").asText() + " "
                    + messages.get(i).path("tool_name").asText());
        }
        assertEquals(
                List.of("tool read_file", "tool read_file", "tool no_such_tool", "tool read_file", "tool read_file"),
                answers);
        assertEquals(
                List.of("contents of a.txt", "contents of b.txt", "contents of e.txt"),
                List.of(
                        messages.get(3).path("content").asText(),
                        messages.get(4).path("content").asText(),
                        messages.get(7).path("content").asText()));
    }

    @Test
    void aLongTextStreamArrivesPieceByPieceWithTheFinalCounts() throws Exception {
        ModelReply reply = replay("gemma3_stream_text", "gemma3:1b");

        String answer = "Sure, here is a short answer. The file lists three steps: build, test, ship.\n\n";
        assertEquals(new ModelReply(answer, List.of(), FinishReason.STOP, Optional.of(new TokenUsage(18, 203))), reply);
        assertEquals(21, text.size());
        assertEquals(answer, String.join("", text));
        assertEquals(List.of(), reasoning);
    }

    /** Most thinking models take think as a switch; without an effort nothing is sent. */
    @Test
    void otherModelsGetThinkAsASwitchAndNoEffortSendsNothing() throws Exception {
        server.enqueue(fixture("text"), fixture("text"), fixture("text"));
        List<Message> history = List.of(new Message.User("go"));

        send(new ModelRequest("qwen3:8b", history, List.of(), Optional.of(ReasoningEffort.LOW)));
        send(new ModelRequest("qwen3:8b", history, List.of()));
        // A model that cannot think answers think with 400 "does not support thinking": it gets none.
        send(new ModelRequest("llama3.2", history, List.of(), Optional.of(ReasoningEffort.HIGH)));

        assertEquals(
                List.of(Json.read("true"), Json.read("null"), Json.read("null")),
                List.of(
                        server.takeJson().path("think"),
                        Optional.ofNullable(server.takeJson().get("think")).orElse(Json.read("null")),
                        Optional.ofNullable(server.takeJson().get("think")).orElse(Json.read("null"))));
    }

    /** Thinking goes back only to the model that wrote it; another provider's reasoning is not the model's own. */
    @Test
    void thinkingOfAnotherModelOrProviderStaysOut() throws Exception {
        server.enqueue(fixture("text"));
        List<Message> history = List.of(
                new Message.User("go"),
                new Message.Assistant("One.", List.of(), "gpt-oss thought", ProviderState.NONE),
                new Message.User("and?"),
                new Message.Assistant(
                        "Two.",
                        List.of(),
                        "gpt-oss thought",
                        new ProviderState("ollama", "{\"model\":\"gpt-oss:120b\"}")),
                new Message.User("and?"),
                new Message.Assistant(
                        "Three.", List.of(), "Claude's thought", new ProviderState("anthropic", "[{\"t\":1}]")),
                new Message.User("done?"));

        send(new ModelRequest("qwen3:8b", history, List.of()));

        assertEquals(
                Json.read(
                        """
                        [{"role":"user","content":"go"},{"role":"assistant","content":"One."},
                         {"role":"user","content":"and?"},{"role":"assistant","content":"Two."},
                         {"role":"user","content":"and?"},{"role":"assistant","content":"Three."},
                         {"role":"user","content":"done?"}]
                        """),
                server.takeJson().get("messages"));
    }
}
