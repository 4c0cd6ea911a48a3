package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every provider client must do with its own wire format, replayed from fixtures under
 * {@code src/test/resources/providers/<provider>/} written from the provider's API documentation: text, one and
 * several tool calls, arguments in fragments, usage, refusals, a cut at the output limit, the error body, and a
 * two-round conversation through the agent loop whose second request is checked whole.
 */
abstract class ProviderConformanceTest {
    static final String KEY = "sk-conformance-secret";

    @TempDir
    Path workspace;

    protected final ScriptedModel server = new ScriptedModel();
    protected final List<String> deltas = new ArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    /** The provider's folder of fixtures. */
    abstract String provider();

    abstract ModelClient client(Timeouts timeouts);

    /** True for providers whose tool calls carry no ids, so Dockhand makes them up. */
    abstract boolean assignsIds();

    /** The path (and query) requests must go to, for model {@code test-model}. */
    abstract String expectedPath();

    /** The HTTP status the provider's documented error body comes with, and the message Dockhand makes of it. */
    abstract int errorStatus();

    abstract String expectedErrorMessage();

    /** The second request of the two-round conversation, in the provider's format, minus the tools. */
    abstract JsonNode expectedSecondRequest();

    /** What a stop at the output limit looks like in this provider's fixture. */
    abstract ModelReply expectedMaxTokensReply();

    MockResponse fixture(String name) {
        boolean ndjson = provider().equals("ollama");
        String file = "/providers/" + provider() + "/" + name + (ndjson ? ".ndjson" : ".sse");
        return new MockResponse()
                .setHeader("Content-Type", ndjson ? "application/x-ndjson" : "text/event-stream")
                .setBody(resource(file));
    }

    static String resource(String path) {
        try (InputStream in = ProviderConformanceTest.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new AssertionError("missing fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private ModelReply replay(String name) throws ProviderException {
        server.enqueue(fixture(name));
        return send();
    }

    private ModelReply send() throws ProviderException {
        return client(Timeouts.DEFAULT).stream(
                new ModelRequest(
                        "test-model", List.of(new Message.System("SYSTEM"), new Message.User("go")), List.of()),
                deltas::add,
                new Cancellation());
    }

    /** Ids are compared only where the provider sends them; made-up ones must exist and differ. */
    private void assertCalls(List<ToolCall> expected, List<ToolCall> actual) {
        assertEquals(expected.size(), actual.size(), actual.toString());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).name(), actual.get(i).name());
            assertEquals(
                    Json.read(expected.get(i).arguments()),
                    Json.read(actual.get(i).arguments()));
            if (assignsIds()) {
                assertTrue(actual.get(i).id().startsWith("call_"), actual.get(i).id());
            } else {
                assertEquals(expected.get(i).id(), actual.get(i).id());
            }
        }
        assertEquals(actual.size(), actual.stream().map(ToolCall::id).distinct().count(), "ids must differ");
    }

    @Test
    void streamsTextWithUsage() throws Exception {
        ModelReply reply = replay("text");

        assertEquals(
                new ModelReply("Hello, world.", List.of(), FinishReason.STOP, Optional.of(new TokenUsage(10, 5))),
                reply);
        assertEquals("Hello, world.", String.join("", deltas));
        assertTrue(deltas.size() >= 2, "the text should stream in pieces: " + deltas);
        server.takeJson();
        assertEquals(expectedPath(), server.lastPath());
    }

    @Test
    void assemblesOneToolCall() throws Exception {
        ModelReply reply = replay("tool_call");

        assertCalls(List.of(new ToolCall(id("1"), "read_file", "{\"path\":\"README.md\"}")), reply.toolCalls());
        assertEquals(FinishReason.TOOL_CALLS, reply.finishReason());
    }

    @Test
    void assemblesParallelToolCallsInOrder() throws Exception {
        ModelReply reply = replay("parallel_tool_calls");

        assertCalls(
                List.of(
                        new ToolCall(id("a"), "read_file", "{\"path\":\"a.txt\"}"),
                        new ToolCall(id("b"), "read_file", "{\"path\":\"b.txt\"}")),
                reply.toolCalls());
    }

    @Test
    void joinsArgumentsSplitAcrossManyEvents() throws Exception {
        ModelReply reply = replay("split_arguments");

        assertCalls(
                List.of(new ToolCall(id("w"), "write_file", "{\"path\":\"x.txt\",\"content\":\"hello\"}")),
                reply.toolCalls());
    }

    @Test
    void reportsAStopAtTheOutputLimit() throws Exception {
        ModelReply reply = replay("max_tokens_in_arguments");
        ModelReply expected = expectedMaxTokensReply();

        assertEquals(expected.text(), reply.text());
        assertEquals(expected.finishReason(), reply.finishReason());
        assertEquals(expected.toolCalls().size(), reply.toolCalls().size());
        for (int i = 0; i < expected.toolCalls().size(); i++) {
            assertEquals(
                    expected.toolCalls().get(i).arguments(),
                    reply.toolCalls().get(i).arguments());
        }
    }

    @Test
    void turnsTheDocumentedErrorBodyIntoAFailureInTheProvidersWords() {
        server.enqueue(new MockResponse()
                .setResponseCode(errorStatus())
                .setHeader("Content-Type", "application/json")
                .setBody(resource("/providers/" + provider() + "/error.json")));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertEquals(expectedErrorMessage(), failure.getMessage());
        assertEquals(errorStatus(), failure.httpStatus());
    }

    @Test
    void neverShowsTheApiKeyInAnError() {
        org.junit.jupiter.api.Assumptions.assumeTrue(!provider().equals("ollama"), "Ollama takes no API key");
        server.enqueue(
                new MockResponse().setResponseCode(401).setBody("{\"error\":{\"message\":\"bad key " + KEY + "\"}}"));

        ProviderException failure = assertThrows(ProviderException.class, this::send);

        assertTrue(
                !failure.getMessage().contains(KEY) && failure.getMessage().contains("[redacted]"),
                failure.getMessage());
    }

    /** An agent loop with this provider's client and a read_file that answers "contents of PATH". */
    private AgentLoop loop() {
        return ReadFileLoop.of(workspace, client(Timeouts.DEFAULT), "test-model");
    }

    @Test
    void completesATwoRoundToolConversationThroughTheAgentLoop() throws Exception {
        server.enqueue(fixture("tool_call"), fixture("text"));

        TurnResult result = loop().run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        assertEquals("Hello, world.", result.answer());
        server.takeJson();
        ObjectNode second = (ObjectNode) server.takeJson();
        second.remove("tools");
        assertEquals(expectedSecondRequest(), second);
    }

    /**
     * A call streamed without a name is answered with an error that asks for a named call, and the history carrying
     * it goes back in a form the provider accepts: the scripted server checks the second request against the
     * provider's rules (an empty name is a 400 in every one of them) before it answers.
     */
    @Test
    void answersACallWithoutANameWithAnErrorAndSendsAValidHistory() throws Exception {
        server.enqueue(fixture("unnamed_tool_call"), fixture("text"));
        AgentLoop loop = loop();

        TurnResult result = loop.run("go", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
        List<Message> messages = loop.conversation().messages();
        ToolCall call = ((Message.Assistant) messages.get(2)).toolCalls().get(0);
        assertEquals(new ToolCall(call.id(), ToolCall.MISSING_NAME, call.arguments()), call);
        assertEquals(Json.read("{\"path\":\"README.md\"}"), Json.read(call.arguments()));
        assertEquals(
                new Message.ToolResult(
                        call.id(),
                        ToolCall.MISSING_NAME,
                        "Your tool call had no tool name, so nothing ran (its arguments were `"
                                + call.arguments() + "`). Call again with the name of one of these tools:"
                                + " read_file.",
                        true),
                messages.get(3));
        server.takeJson();
        assertTrue(server.takeJson().toString().contains("\"" + ToolCall.MISSING_NAME + "\""));
    }

    /** The id the provider's fixture gives the call, or a made-up one. */
    private String id(String suffix) {
        return switch (provider()) {
            case "openai", "openai-responses" -> "call_" + suffix;
            case "anthropic" -> "toolu_" + suffix;
            default -> "call_generated";
        };
    }

    /** A read_file that answers "contents of PATH". */
    static final class FakeReadFile extends BaseTool<FakeReadFile.Params> {
        /** Its one argument. */
        record Params(String path) {}

        FakeReadFile() {
            super(
                    "read_file",
                    "Read a file.",
                    Schema.object().required("path", Schema.string("The file.")).build(),
                    ToolKind.READ,
                    Params.class);
        }

        @Override
        public String summarize(Params params) {
            return params.path();
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            return ToolResult.success("contents of " + params.path(), "read");
        }
    }
}
