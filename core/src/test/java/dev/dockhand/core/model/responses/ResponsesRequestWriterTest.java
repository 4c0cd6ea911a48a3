package dev.dockhand.core.model.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.testing.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The request bodies the Responses client sends, whole; each is also checked against the API's rules
 * (ResponsesRules) so none is one the API would refuse.
 */
class ResponsesRequestWriterTest {
    private static final ToolDeclaration READ =
            new ToolDeclaration("read_file", "Read a file.", (com.fasterxml.jackson.databind.node.ObjectNode)
                    Json.read("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
                            + "\"limit\":{\"type\":\"integer\"}},\"required\":[\"path\"],"
                            + "\"additionalProperties\":false}"));

    private static JsonNode write(ModelRequest request) {
        JsonNode body = Json.read(new String(new ResponsesRequestWriter().write(request), StandardCharsets.UTF_8));
        assertEquals(List.of(), WireFormat.OPENAI_RESPONSES.problems(body));
        return body;
    }

    private static JsonNode inputOf(Message.Assistant reply) {
        return write(new ModelRequest(
                        "gpt-5.1-codex",
                        List.of(
                                new Message.User("go"),
                                reply,
                                new Message.ToolResult("c1", "read_file", "A", false),
                                new Message.User("next")),
                        List.of()))
                .get("input");
    }

    /** A reply's recorded items, written by the model the tests ask (reasoning goes back to it alone). */
    private static String state(String items) {
        return Json.write(Json.read("{\"model\":\"gpt-5.1-codex\",\"items\":" + items + "}"));
    }

    @Test
    void aReasoningModelIsAskedForItsSummaryItsEffortAndItsEncryptedReasoning() {
        JsonNode body = write(new ModelRequest(
                "gpt-5.1-codex-max",
                List.of(new Message.System("SYSTEM"), new Message.User("go")),
                List.of(READ),
                Optional.of(ReasoningEffort.HIGH)));

        assertEquals(
                Json.read(
                        """
                        {"model":"gpt-5.1-codex-max","instructions":"SYSTEM",
                         "input":[{"type":"message","role":"user","content":"go"}],
                         "tools":[{"type":"function","name":"read_file","description":"Read a file.",
                           "parameters":{"type":"object","properties":{"path":{"type":"string"},
                             "limit":{"type":"integer"}},"required":["path"],"additionalProperties":false},
                           "strict":false}],
                         "parallel_tool_calls":true,"stream":true,"store":false,
                         "include":["reasoning.encrypted_content"],
                         "reasoning":{"effort":"high","summary":"auto"}}
                        """),
                body);
    }

    @Test
    void aModelThatDoesNotReasonIsAskedNoReasoningWhateverTheEffort() {
        JsonNode body = write(new ModelRequest(
                "gpt-4o", List.of(new Message.User("go")), List.of(), Optional.of(ReasoningEffort.LOW)));

        assertEquals(
                Json.read(
                        """
                        {"model":"gpt-4o","input":[{"type":"message","role":"user","content":"go"}],
                         "stream":true,"store":false}
                        """),
                body);
    }

    @Test
    void anotherServersModelThatTakesAnEffortGetsItButNoSummary() {
        JsonNode body = write(new ModelRequest(
                "grok-3-mini", List.of(new Message.User("go")), List.of(), Optional.of(ReasoningEffort.LOW)));

        assertEquals(
                Json.read(
                        """
                        {"model":"grok-3-mini","input":[{"type":"message","role":"user","content":"go"}],
                         "stream":true,"store":false,"include":["reasoning.encrypted_content"],
                         "reasoning":{"effort":"low"}}
                        """),
                body);
    }

    /** xAI answers 400 "Model grok-4-fast-reasoning does not support parameter reasoningEffort." */
    @Test
    void grokModelsThatRefuseAnEffortAreSentNoReasoningParameter() {
        java.util.Map<String, JsonNode> sent = new java.util.TreeMap<>();
        for (String model : List.of("grok-4", "grok-4-fast-reasoning", "grok-4-1-fast-reasoning", "grok-code-fast-1")) {
            sent.put(
                    model,
                    write(new ModelRequest(
                                    model,
                                    List.of(new Message.User("go")),
                                    List.of(),
                                    Optional.of(ReasoningEffort.HIGH)))
                            .get("reasoning"));
        }

        java.util.Map<String, JsonNode> none = new java.util.TreeMap<>();
        for (String model : sent.keySet()) {
            none.put(model, null);
        }
        assertEquals(none, sent);
    }

    @Test
    void stateFromAnotherWireIsDropped() {
        Message.Assistant reply = new Message.Assistant(
                "Reading.",
                List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}")),
                "thinking",
                new ProviderState("anthropic", "{\"blocks\":[{\"type\":\"thinking\",\"signature\":\"s\"}]}"));

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Reading."}]},
                         {"type":"function_call","call_id":"c1","name":"read_file","arguments":"{\\"path\\":\\"a\\"}"},
                         {"type":"function_call_output","call_id":"c1","output":"A"},
                         {"type":"message","role":"user","content":"next"}]
                        """),
                inputOf(reply));
    }

    @Test
    void reasoningAndMessagesGoBackInTheOrderTheModelMadeThem() {
        Message.Assistant reply = new Message.Assistant(
                "First. Then.",
                List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}")),
                "",
                new ProviderState(
                        "openai-responses",
                        state(
                                """
                                [{"id":"rs_1","type":"reasoning","encrypted_content":"e1","summary":[]},
                                 {"type":"message","text":"First. ","phase":"commentary"},
                                 {"id":"rs_2","type":"reasoning","encrypted_content":"e2","summary":[]},
                                 {"type":"function_call","call_id":"c1"},
                                 {"type":"message","text":"Then.","phase":"final_answer"}]
                                """)));

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"id":"rs_1","type":"reasoning","encrypted_content":"e1","summary":[]},
                         {"type":"message","role":"assistant","content":[{"type":"output_text","text":"First. "}],
                          "phase":"commentary"},
                         {"id":"rs_2","type":"reasoning","encrypted_content":"e2","summary":[]},
                         {"type":"function_call","call_id":"c1","name":"read_file","arguments":"{\\"path\\":\\"a\\"}"},
                         {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Then."}],
                          "phase":"final_answer"},
                         {"type":"function_call_output","call_id":"c1","output":"A"},
                         {"type":"message","role":"user","content":"next"}]
                        """),
                inputOf(reply));
    }

    /** A reply whose text no longer matches its recorded messages goes back as reasoning, text, calls. */
    @Test
    void aReplyWhoseTextChangedKeepsItsReasoningAndSendsTheTextAsItIsNow() {
        Message.Assistant reply = new Message.Assistant(
                "Shortened.",
                List.of(new ToolCall("c1", "read_file", "{\"path\":")),
                "",
                new ProviderState(
                        "openai-responses",
                        state(
                                """
                                [{"id":"rs_1","type":"reasoning","encrypted_content":"e1","summary":[]},
                                 {"type":"message","text":"A long commentary.","phase":"commentary"},
                                 {"type":"function_call","call_id":"c1"}]
                                """)));

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"id":"rs_1","type":"reasoning","encrypted_content":"e1","summary":[]},
                         {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Shortened."}]},
                         {"type":"function_call","call_id":"c1","name":"read_file","arguments":"{}"},
                         {"type":"function_call_output","call_id":"c1","output":"A"},
                         {"type":"message","role":"user","content":"next"}]
                        """),
                inputOf(reply));
    }

    /** A reply cut off after it reasoned has nothing for its reasoning to lead to; the API refuses it alone. */
    @Test
    void reasoningThatLedToNothingIsLeftOut() {
        Message.Assistant cut = new Message.Assistant(
                "",
                List.of(),
                "",
                new ProviderState(
                        "openai-responses",
                        state(
                                "[{\"id\":\"rs_1\",\"type\":\"reasoning\",\"encrypted_content\":\"e1\",\"summary\":[]}]")));

        JsonNode body = write(new ModelRequest(
                "gpt-5.1-codex", List.of(new Message.User("go"), cut, new Message.User("again")), List.of()));

        assertEquals(
                Json.read(
                        """
                        [{"type":"message","role":"user","content":"go"},
                         {"type":"message","role":"user","content":"again"}]
                        """),
                body.get("input"));
    }

    @Test
    void reasoningOfAnotherModelStaysOut() {
        Message.Assistant reply = new Message.Assistant(
                "",
                List.of(new ToolCall("c1", "read_file", "{}")),
                "",
                new ProviderState(
                        "openai-responses",
                        state("[{\"id\":\"rs_1\",\"type\":\"reasoning\",\"encrypted_content\":\"e1\",\"summary\":[]},"
                                + "{\"type\":\"function_call\",\"call_id\":\"c1\"}]")));
        List<Message> history =
                List.of(new Message.User("go"), reply, new Message.ToolResult("c1", "read_file", "A", false));

        // gpt-4.1 refuses reasoning items at all; another reasoning model cannot decrypt them.
        for (String model : List.of("gpt-4.1", "gpt-5")) {
            assertEquals(
                    Json.read(
                            """
                            [{"type":"message","role":"user","content":"go"},
                             {"type":"function_call","call_id":"c1","name":"read_file","arguments":"{}"},
                             {"type":"function_call_output","call_id":"c1","output":"A"}]
                            """),
                    write(new ModelRequest(model, history, List.of())).get("input"),
                    model);
        }
    }
}
