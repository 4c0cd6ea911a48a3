package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.core.session.Transcript;
import dev.dockhand.core.testing.RecordedDeltas;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.WireFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reply's thinking goes back where the reply had it after the session is saved and resumed; a session saved before
 * Dockhand kept the reply's order (its state holds the thinking blocks alone) loads and goes back as it always did.
 */
class AnthropicResumedThinkingTest {
    @TempDir
    Path temp;

    /** A session of one tool round after {@code reply}, saved and read back. */
    private List<Message> savedAndRead(Message.Assistant reply) {
        Path file = temp.resolve("session.jsonl");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation conversation = new Conversation("SYSTEM");
            conversation.observe(transcript::record);
            conversation.addUser("go");
            conversation.addAssistant(reply);
            for (ToolCall call : reply.toolCalls()) {
                conversation.addToolResult(new Message.ToolResult(call.id(), call.name(), "read", false));
            }
        }
        return Sessions.read(file).messages();
    }

    /** The assistant turn of the request the resumed session sends with thinking on. */
    private static JsonNode assistantTurn(List<Message> messages) {
        ObjectNode body = AnthropicRequestWriter.write(
                new ModelRequest("m", messages, List.of(), Optional.of(ReasoningEffort.LOW)), 4096);
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(body));
        return body.at("/messages/1/content");
    }

    private static ObjectNode toolUse(ToolCall call) {
        ObjectNode block =
                Json.object().put("type", "tool_use").put("id", call.id()).put("name", call.name());
        block.set("input", Json.read(call.arguments()));
        return block;
    }

    @Test
    void anInterleavedReplyGoesBackInItsOrderAfterAResume() throws Exception {
        ModelReply reply;
        try (ScriptedModel server = new ScriptedModel()) {
            server.enqueue(AnthropicLoops.fixture("opus46_interleaved_thinking_tools"));
            reply = AnthropicLoops.client(server, true).stream(
                    new ModelRequest("m", List.of(new Message.User("go")), List.of()),
                    new RecordedDeltas(),
                    new Cancellation());
            server.takeJson();
        }

        List<Message> resumed =
                savedAndRead(new Message.Assistant(reply.text(), reply.toolCalls(), reply.reasoning(), reply.state()));

        JsonNode expected = Json.MAPPER
                .createArrayNode()
                .add(
                        Json.read(
                                "{\"type\":\"thinking\",\"thinking\":\"The module list is in the build file; read it"
                                        + " first.\",\"signature\":\"T3B1c0ludGVybGVhdmVkVGhpbmtpbmdPbmVGb3JEb2NraGFuZC9maXJzdCtibG9jaz0=\"}"))
                .add(Json.object().put("type", "text").put("text", "I'll read the build file and the readme."))
                .add(toolUse(reply.toolCalls().get(0)))
                .add(
                        Json.read(
                                "{\"type\":\"thinking\",\"thinking\":\"The readme may name modules the build file leaves"
                                        + " out.\",\"signature\":\"T3B1c0ludGVybGVhdmVkVGhpbmtpbmdUd29Gb3JEb2NraGFuZC9zZWNvbmQrYmxvY2s=\"}"))
                .add(toolUse(reply.toolCalls().get(1)));
        assertEquals(expected, assistantTurn(resumed));
    }

    @Test
    void aSessionSavedBeforeTheOrderWasKeptGoesBackAsBefore() {
        String thinking = "{\"type\":\"thinking\",\"thinking\":\"Read a.\",\"signature\":\"c2lnLTE=\"}";
        ToolCall call = new ToolCall("toolu_a", "read_file", "{\"path\":\"a\"}");
        Message.Assistant older = new Message.Assistant(
                "Reading a.",
                List.of(call),
                "Read a.",
                new ProviderState("anthropic", "{\"model\":\"m\",\"blocks\":[" + thinking + "]}"));

        List<Message> resumed = savedAndRead(older);

        assertEquals(older, resumed.get(1));
        assertEquals(
                Json.MAPPER
                        .createArrayNode()
                        .add(Json.read(thinking))
                        .add(Json.object().put("type", "text").put("text", "Reading a."))
                        .add(toolUse(call)),
                assistantTurn(resumed));
    }
}
