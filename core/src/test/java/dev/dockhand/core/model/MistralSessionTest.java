package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.core.session.Transcript;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.Sse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions that go on with a Mistral model, whose API refuses a user message right after a tool message and any tool
 * call id but nine letters and digits: the scripted model holds each request to those rules (MistralRules), so a
 * request Mistral would refuse fails the test with its 400.
 */
class MistralSessionTest {
    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();

    @AfterEach
    void stop() {
        server.close();
    }

    private AgentLoop mistral(Conversation conversation, int maxRequests) {
        return ReadFileLoop.of(
                workspace,
                new OpenAiClient(server.baseUrl(), "sk-test", Timeouts.DEFAULT),
                "mistral-large-latest",
                conversation,
                maxRequests,
                new EventRecorder());
    }

    /**
     * A turn that reaches its request limit right after a tool round ends on the tool's result; the next prompt then
     * follows a short assistant message, and Mistral's own nine-character id goes back as it came.
     */
    @Test
    void aTurnThatEndedOnItsToolResultsGoesOnWithTheNextPrompt() throws Exception {
        server.enqueue(ProviderFixtures.stream("openai", "mistral_noindex_tool"), Sse.answer("It says hello."));
        AgentLoop loop = mistral(new Conversation("SYSTEM"), 1);
        assertEquals(
                TurnResult.Outcome.TURN_LIMIT,
                loop.run("read the readme", new Cancellation()).outcome());

        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("go on", new Cancellation()).outcome());
        server.takeJson();
        JsonNode second = server.takeJson();

        assertEquals(
                Json.read(
                        """
                        [{"role":"system","content":"SYSTEM"},
                         {"role":"user","content":"read the readme"},
                         {"role":"assistant","content":null,"tool_calls":[{"id":"Rd7mQx2Kp","type":"function",
                           "function":{"name":"read_file","arguments":"{\\"path\\": \\"README.md\\"}"}}]},
                         {"role":"tool","tool_call_id":"Rd7mQx2Kp","content":"contents of README.md"},
                         {"role":"assistant","content":"I have read the tool results."},
                         {"role":"user","content":"go on"}]
                        """),
                second.get("messages"));
        assertEquals(false, second.has("stream_options"));
    }

    /**
     * An Anthropic session that crashed mid-round, resumed with Mistral: Claude's {@code toolu_} ids go out as nine
     * letters and digits, its thinking stays behind, and the resume's answer to the open call is followed by a short
     * assistant message before the prompt.
     */
    @Test
    void anAnthropicSessionResumedAfterACrashGoesOnWithMistral() throws Exception {
        Path file = workspace.resolve("s1.jsonl");
        ToolCall call = new ToolCall("toolu_01A09q90qw90lq917835lq9", "read_file", "{\"path\":\"a\"}");
        try (Transcript transcript = Transcript.open(file, "s1", workspace, "claude-sonnet-4-6")) {
            Conversation anthropic = new Conversation("SYSTEM");
            anthropic.observe(transcript::record);
            anthropic.addUser("read a");
            anthropic.addAssistant(new Message.Assistant(
                    "Reading.",
                    List.of(call),
                    "The user wants a.",
                    new ProviderState(
                            "anthropic",
                            "{\"model\":\"claude-sonnet-4-6\",\"blocks\":[{\"type\":\"thinking\",\"thinking\":"
                                    + "\"The user wants a.\",\"signature\":\"EqQBCkYIBBgC\"}]}")));
        }
        Conversation resumed = new Conversation("SYSTEM");
        try (Transcript transcript = Transcript.open(file, "s1", workspace, "mistral-large-latest")) {
            Sessions.resume(file, resumed, transcript);
        }
        String interrupted = ((Message.ToolResult) resumed.messages().get(3)).content();
        server.enqueue(Sse.answer("Let me look again."));

        assertEquals(
                TurnResult.Outcome.ANSWERED,
                mistral(resumed, 10).run("go on", new Cancellation()).outcome());

        assertEquals(
                Json.read(
                        """
                        [{"role":"system","content":"SYSTEM"},
                         {"role":"user","content":"read a"},
                         {"role":"assistant","content":"Reading.","tool_calls":[{"id":"Ep3mUizBt","type":"function",
                           "function":{"name":"read_file","arguments":"{\\"path\\":\\"a\\"}"}}]},
                         {"role":"tool","tool_call_id":"Ep3mUizBt","content":%s},
                         {"role":"assistant","content":"I have read the tool results."},
                         {"role":"user","content":"go on"}]
                        """
                                .formatted(
                                        Json.write(Json.MAPPER.getNodeFactory().textNode(interrupted)))),
                server.takeJson().get("messages"));
    }
}
