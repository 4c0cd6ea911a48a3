package dev.dockhand.core.model.gemini;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.Schema;
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
 * Gemini's thinking replies played through the whole loop: the recorded reply shapes (fixtures under {@code
 * providers/gemini/}, see SOURCES.md) are answered by real tool rounds, and the next request is checked whole, as the
 * API reads it: every call answered once, each signature on the part it came on, the arguments as the model sent them,
 * the thought text nowhere. The scripted server also refuses, as Gemini 3 does, a step of the current turn whose first
 * call lost its signature.
 */
class GeminiThoughtSignatureLoopTest {
    private static final String SIGNED_CALL =
            "ZG9ja2hhbmQgZml4dHVyZTogZ2VtaW5pLTMgcHJvIHNpZ25lZCBjYWxsLCBvcGFxdWUgdG8gdGhlIGNsaWVudA==";
    private static final String NO_ARGS_CALL = "ZG9ja2hhbmQgZml4dHVyZTogZ2VtaW5pLTMgcHJvIG5vLWFyZ3VtZW50IGNhbGw=";
    private static final String FIRST_PARALLEL_CALL =
            "ZG9ja2hhbmQgZml4dHVyZTogZ2VtaW5pLTMgZmxhc2gsIGZpcnN0IG9mIHRocmVlIHBhcmFsbGVsIGNhbGxz";
    private static final String READ_AFTER_THOUGHTS =
            "ZG9ja2hhbmQgZml4dHVyZTogZ2VtaW5pLTIuNSByZWFkX2ZpbGUgYWZ0ZXIgdHdvIHRob3VnaHRz";
    private static final String SHELL_AFTER_TEXT =
            "ZG9ja2hhbmQgZml4dHVyZTogZ2VtaW5pLTIuNSBzaGVsbCBjYWxsIGFmdGVyIHRleHQ=";
    private static final String SIGNED_TEXT =
            "ZG9ja2hhbmQgZml4dHVyZTogZ2VtaW5pLTMgdGV4dCBhbnN3ZXIsIHNpZ25hdHVyZSBvbiB0aGUgZW1wdHkgbGFzdCBwYXJ0";

    private static final String FIRST_THOUGHT =
            "**Finding the notes**\n\nThe user wants the notes echoed, so I read `notes.txt` first.\n\n\n";
    private static final String SECOND_THOUGHT =
            "**Reading the file**\n\nI call `read_file` on `notes.txt`, then echo what it holds.\n\n\n";

    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();
    private final EventRecorder events = new EventRecorder();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aSignedCallGoesBackWithItsSignatureOnItsOwnPart() throws Exception {
        server.enqueue(fixture("gemini3_signed_call"), fixture("text"));

        TurnResult result = loop("gemini-3-pro-preview", new Answering("lookup_weather", "location"))
                .run("What is the weather in Lisbon?", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        server.takeJson();
        assertEquals(
                Json.read(
                        """
                {"contents":[{"role":"user","parts":[{"text":"What is the weather in Lisbon?"}]},
                  {"role":"model","parts":[{"functionCall":{"name":"lookup_weather","args":{"location":"Lisbon"}},
                    "thoughtSignature":"%s"}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"lookup_weather",
                    "response":{"output":"lookup_weather answered {\\"location\\":\\"Lisbon\\"}"}}}]}],
                 "generationConfig":{"thinkingConfig":{"includeThoughts":true}}}
                """
                                .formatted(SIGNED_CALL)),
                withoutPreamble(server.takeJson()));
    }

    @Test
    void aCallWithoutArgumentsGoesBackWithEmptyArgumentsAndItsSignature() throws Exception {
        server.enqueue(fixture("gemini3_noargs_call"), fixture("text"));

        TurnResult result =
                loop("gemini-3-pro-preview", new Answering("current_country")).run("Where am I?", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        server.takeJson();
        assertEquals(
                Json.read(
                        """
                {"contents":[{"role":"user","parts":[{"text":"Where am I?"}]},
                  {"role":"model","parts":[{"functionCall":{"name":"current_country","args":{}},
                    "thoughtSignature":"%s"}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"current_country",
                    "response":{"output":"current_country answered {}"}}}]}],
                 "generationConfig":{"thinkingConfig":{"includeThoughts":true}}}
                """
                                .formatted(NO_ARGS_CALL)),
                withoutPreamble(server.takeJson()));
    }

    @Test
    void ofThreeIdenticalParallelCallsOnlyTheFirstCarriesTheSignatureBackAndEachIsAnswered() throws Exception {
        server.enqueue(fixture("gemini3_parallel_calls"), fixture("text"));

        TurnResult result =
                loop("gemini-3-flash-preview", new Answering("pick_topic")).run("Three topics.", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        server.takeJson();
        String answer = "{\"functionResponse\":{\"name\":\"pick_topic\","
                + "\"response\":{\"output\":\"pick_topic answered {}\"}}}";
        assertEquals(
                Json.read(
                        """
                {"contents":[{"role":"user","parts":[{"text":"Three topics."}]},
                  {"role":"model","parts":[{"functionCall":{"name":"pick_topic","args":{}},"thoughtSignature":"%s"},
                    {"functionCall":{"name":"pick_topic","args":{}}},
                    {"functionCall":{"name":"pick_topic","args":{}}}]},
                  {"role":"user","parts":[%s,%s,%s]}],
                 "generationConfig":{"thinkingConfig":{"includeThoughts":true}}}
                """
                                .formatted(FIRST_PARALLEL_CALL, answer, answer, answer)),
                withoutPreamble(server.takeJson()));
    }

    @Test
    void thoughtsStreamAsReasoningAndStayOutOfTheNextRequest() throws Exception {
        server.enqueue(fixture("gemini25_thoughts_then_call"), fixture("text"));
        AgentLoop loop = loop("gemini-2.5-pro", new Answering("read_file", "file_path"));

        TurnResult result = loop.run("Echo my notes.", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals(
                List.of(new AgentEvent.ReasoningDelta(FIRST_THOUGHT), new AgentEvent.ReasoningDelta(SECOND_THOUGHT)),
                events.ofType(AgentEvent.ReasoningDelta.class));
        assertEquals(
                List.of(new AgentEvent.TextDelta("Hello, "), new AgentEvent.TextDelta("world.")),
                events.ofType(AgentEvent.TextDelta.class));
        Message.Assistant call =
                (Message.Assistant) loop.conversation().messages().get(2);
        assertEquals(FIRST_THOUGHT + SECOND_THOUGHT, call.reasoning());
        assertEquals("", call.text());
        server.takeJson();
        assertEquals(
                Json.read(
                        """
                {"contents":[{"role":"user","parts":[{"text":"Echo my notes."}]},
                  {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}},
                    "thoughtSignature":"%s"}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"read_file",
                    "response":{"output":"read_file answered {\\"file_path\\":\\"notes.txt\\"}"}}}]}],
                 "generationConfig":{"thinkingConfig":{"includeThoughts":true}}}
                """
                                .formatted(READ_AFTER_THOUGHTS)),
                withoutPreamble(server.takeJson()));
    }

    @Test
    void textBeforeASignedCallGoesBackAsOneTextPartAndTheThoughtDoesNot() throws Exception {
        server.enqueue(fixture("gemini25_thought_text_call"), fixture("text"));

        TurnResult result = loop("gemini-2.5-pro", new Answering("run_shell_command", "description", "command"))
                .run("Run echo READY.", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        server.takeJson();
        assertEquals(
                Json.read(
                        """
                {"contents":[{"role":"user","parts":[{"text":"Run echo READY."}]},
                  {"role":"model","parts":[{"text":"I will run the echo command to check the shell."},
                    {"functionCall":{"name":"run_shell_command","args":{"description":"Echo a word to check the shell.",
                      "command":"echo READY"}},"thoughtSignature":"%s"}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":
                    "run_shell_command answered {\\"description\\":\\"Echo a word to check the shell.\\",\\"command\\":\\"echo READY\\"}"}}}]}],
                 "generationConfig":{"thinkingConfig":{"includeThoughts":true}}}
                """
                                .formatted(SHELL_AFTER_TEXT)),
                withoutPreamble(server.takeJson()));
    }

    /**
     * Gemini 3 signs a text answer on an empty last chunk; the next turn sends that answer back as one text part with
     * the signature, and the call before it still carries its own: both steps of the first turn are whole.
     */
    @Test
    void aTextAnswerSignedOnItsEmptyLastChunkGoesBackAsOneSignedTextPart() throws Exception {
        server.enqueue(fixture("gemini3_signed_call"), fixture("gemini3_text_signed_end"), fixture("text"));
        AgentLoop loop = loop("gemini-3-pro-preview", new Answering("lookup_weather", "location"));

        TurnResult first = loop.run("What is the weather in Lisbon?", new Cancellation());
        TurnResult second = loop.run("Thanks.", new Cancellation());

        assertEquals("It is sunny in Lisbon.", first.answer());
        assertEquals("Hello, world.", second.answer());
        server.takeJson();
        server.takeJson();
        assertEquals(
                Json.read(
                        """
                {"contents":[{"role":"user","parts":[{"text":"What is the weather in Lisbon?"}]},
                  {"role":"model","parts":[{"functionCall":{"name":"lookup_weather","args":{"location":"Lisbon"}},
                    "thoughtSignature":"%s"}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"lookup_weather",
                    "response":{"output":"lookup_weather answered {\\"location\\":\\"Lisbon\\"}"}}}]},
                  {"role":"model","parts":[{"text":"It is sunny in Lisbon.","thoughtSignature":"%s"}]},
                  {"role":"user","parts":[{"text":"Thanks."}]}],
                 "generationConfig":{"thinkingConfig":{"includeThoughts":true}}}
                """
                                .formatted(SIGNED_CALL, SIGNED_TEXT)),
                withoutPreamble(server.takeJson()));
    }

    /**
     * The first call of a step is signed in a later request too, whatever came after it: a second step's request
     * (signed call, its result, the next signed call, its result) passes Gemini 3's check for both steps.
     */
    @Test
    void everyStepOfTheTurnKeepsItsSignatureInLaterRequests() throws Exception {
        server.enqueue(fixture("gemini3_signed_call"), fixture("gemini3_noargs_call"), fixture("text"));

        TurnResult result = loop(
                        "gemini-3-pro-preview",
                        new Answering("lookup_weather", "location"),
                        new Answering("current_country"))
                .run("Weather here?", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        server.takeJson();
        server.takeJson();
        JsonNode third = server.takeJson();
        assertEquals(
                List.of(SIGNED_CALL, NO_ARGS_CALL),
                List.of(
                        third.at("/contents/1/parts/0/thoughtSignature").asText(),
                        third.at("/contents/3/parts/0/thoughtSignature").asText()));
    }

    @Test
    void usageCountsThoughtsAsOutputAndCachedTokensWithinTheInput() throws Exception {
        assertEquals(new TokenUsage(29, 15 + 804, 0, 0, 804), replay("gemini3_signed_call", "gemini-3-pro-preview"));
        assertEquals(new TokenUsage(29, 10 + 202, 0, 0, 202), replay("gemini3_noargs_call", "gemini-3-pro-preview"));
        assertEquals(
                new TokenUsage(83, 30 + 190, 0, 0, 190), replay("gemini3_parallel_calls", "gemini-3-flash-preview"));
        assertEquals(
                new TokenUsage(12803, 21 + 174, 11797, 0, 174),
                replay("gemini25_thoughts_then_call", "gemini-2.5-pro"));
        assertEquals(
                new TokenUsage(7949, 50 + 206, 6082, 0, 206), replay("gemini25_thought_text_call", "gemini-2.5-pro"));
    }

    /** The reply keeps the signed layout, and the unsigned thought only as reasoning. */
    @Test
    void theReplyKeepsItsPartsAndSignaturesAsGeminiState() throws Exception {
        server.enqueue(fixture("gemini25_thought_text_call"));
        List<String> reasoning = new ArrayList<>();

        ModelReply reply = new GeminiClient(server.rootUrl(), "key", Timeouts.DEFAULT)
                .stream(
                        new ModelRequest("gemini-2.5-pro", List.of(new Message.User("Run echo READY.")), List.of()),
                        new dev.dockhand.core.model.ModelClient.StreamListener() {
                            @Override
                            public void onTextDelta(String text) {}

                            @Override
                            public void onReasoningDelta(String text) {
                                reasoning.add(text);
                            }
                        },
                        new Cancellation());

        String thought =
                "**Planning the check**\n\nThe user asks me to run `echo READY`; the shell tool can do it.\n\n\n";
        assertEquals(List.of(thought), reasoning);
        assertEquals(thought, reply.reasoning());
        assertEquals("I will run the echo command to check the shell.", reply.text());
        assertEquals("gemini", reply.state().wire());
        assertEquals(
                Json.read(
                        """
                {"model":"gemini-2.5-pro","parts":[{"text":"I will run the echo command to check the shell."},
                  {"functionCall":0,"thoughtSignature":"%s"}]}
                """
                                .formatted(SHELL_AFTER_TEXT)),
                Json.read(reply.state().json()));
    }

    @Test
    void aReplyWithoutSignaturesKeepsNoState() throws Exception {
        server.enqueue(fixture("text"));

        ModelReply reply = new GeminiClient(server.rootUrl(), "key", Timeouts.DEFAULT)
                .stream(
                        new ModelRequest("gemini-2.5-flash", List.of(new Message.User("hi")), List.of()),
                        text -> {},
                        new Cancellation());

        assertEquals(ProviderState.NONE, reply.state());
        assertEquals(Optional.of(new TokenUsage(10, 5)), reply.usage());
    }

    private TokenUsage replay(String fixture, String model) throws Exception {
        server.enqueue(fixture(fixture));
        return new GeminiClient(server.rootUrl(), "key", Timeouts.DEFAULT)
                .stream(
                                new ModelRequest(model, List.of(new Message.User("go")), List.of()),
                                text -> {},
                                new Cancellation())
                        .usage()
                        .orElseThrow();
    }

    /** The request without what every request repeats: the system prompt and the tool declarations. */
    private static JsonNode withoutPreamble(JsonNode request) {
        ObjectNode copy = (ObjectNode) request.deepCopy();
        copy.remove("systemInstruction");
        copy.remove("tools");
        return copy;
    }

    private AgentLoop loop(String model, Answering... tools) {
        ToolRegistry registry = new ToolRegistry(List.of(tools));
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                events);
        return new AgentLoop(
                new GeminiClient(server.rootUrl(), "key", Timeouts.DEFAULT),
                model,
                registry.declarations(),
                scheduler,
                new Conversation("SYSTEM"),
                10,
                events);
    }

    static MockResponse fixture(String name) {
        return ProviderFixtures.stream("gemini", name);
    }

    /** A tool taking the given optional string arguments, answering "NAME answered ARGS". */
    static final class Answering extends BaseTool<ObjectNode> {
        Answering(String name, String... arguments) {
            super(name, "Test tool " + name + ".", schema(arguments), ToolKind.READ, ObjectNode.class);
        }

        private static ObjectNode schema(String... arguments) {
            Schema schema = Schema.object();
            for (String argument : arguments) {
                schema.optional(argument, Schema.string("A value."));
            }
            return schema.build();
        }

        @Override
        public String summarize(ObjectNode params) {
            return Json.write(params);
        }

        @Override
        public ToolResult execute(ObjectNode params, ToolContext context) {
            return ToolResult.success(name() + " answered " + Json.write(params), "answered");
        }
    }
}
