package dev.dockhand.core.model.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.tool.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpenAiRequestWriterTest {
    private static final List<ToolDeclaration> TOOLS = List.of(new ToolDeclaration(
            "read_file",
            "Reads a file.",
            Schema.object().required("path", Schema.string("A path.")).build()));

    @Test
    void writesAChatCompletionsBodyWithTheHistoryAndTheTools() {
        List<Message> history = List.of(
                new Message.System("Be brief."),
                new Message.User("Read \"a\" – all of it."),
                new Message.Assistant("", List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}"))),
                new Message.ToolResult("c1", "read_file", "line one\n", false),
                new Message.Assistant("Done.", List.of()));

        String body = text(new OpenAiRequestWriter().write(new ModelRequest("gpt-x", history, TOOLS)));

        assertEquals(
                Json.read("{\"model\":\"gpt-x\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                        + "\"messages\":["
                        + "{\"role\":\"system\",\"content\":\"Be brief.\"},"
                        + "{\"role\":\"user\",\"content\":\"Read \\\"a\\\" – all of it.\"},"
                        + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"a\\\"}\"}}]},"
                        + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"line one\\n\"},"
                        + "{\"role\":\"assistant\",\"content\":\"Done.\"}],"
                        + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"read_file\","
                        + "\"description\":\"Reads a file.\",\"parameters\":{\"type\":\"object\",\"properties\":"
                        + "{\"path\":{\"type\":\"string\",\"description\":\"A path.\"}},\"required\":[\"path\"],"
                        + "\"additionalProperties\":false}}}]}"),
                Json.read(body));
    }

    @Test
    void aWriterThatHasWrittenEarlierRoundsWritesTheSameBodyAsAFreshOne() {
        OpenAiRequestWriter reused = new OpenAiRequestWriter();
        List<Message> history = new ArrayList<>(List.of(new Message.System("Be brief."), new Message.User("Go.")));
        for (int round = 1; round <= 3; round++) {
            reused.write(new ModelRequest("gpt-x", history, TOOLS));
            history.add(new Message.Assistant(
                    "", List.of(new ToolCall("c" + round, "read_file", "{\"path\":\"" + round + "\"}"))));
            history.add(new Message.ToolResult("c" + round, "read_file", "round " + round, false));
        }
        // A compacted history: the old messages replaced by a summary, the last round kept.
        List<Message> compacted = List.of(history.get(0), new Message.User("Summary."), history.get(6), history.get(7));

        assertEquals(
                List.of(
                        text(new OpenAiRequestWriter().write(new ModelRequest("gpt-x", history, TOOLS))),
                        text(new OpenAiRequestWriter().write(new ModelRequest("gpt-y", compacted, List.of())))),
                List.of(
                        text(reused.write(new ModelRequest("gpt-x", history, TOOLS))),
                        text(reused.write(new ModelRequest("gpt-y", compacted, List.of())))));
    }

    @Test
    void modelsThatRefuseAnEffortAreNotSentOne() {
        List<Message> history = List.of(new Message.User("Go."));
        OpenAiRequestWriter writer = new OpenAiRequestWriter();
        java.util.Map<String, Boolean> sent = new java.util.TreeMap<>();
        for (String model :
                List.of("gpt-4.1", "gpt-4o-2024-08-06", "gpt-5-chat-latest", "grok-4", "grok-3-mini", "o3", "gpt-5")) {
            JsonNode body = Json.read(
                    text(writer.write(new ModelRequest(model, history, List.of(), Optional.of(ReasoningEffort.HIGH)))));
            sent.put(model, body.has("reasoning_effort"));
        }

        assertEquals(
                new java.util.TreeMap<>(java.util.Map.of(
                        "gpt-4.1", false,
                        "gpt-4o-2024-08-06", false,
                        "gpt-5-chat-latest", false,
                        "grok-4", false,
                        "grok-3-mini", true,
                        "o3", true,
                        "gpt-5", true)),
                sent);
    }

    @Test
    void anEffortIsSentAsReasoningEffortAndTurnsDeepSeeksThinkingOn() {
        List<Message> history = List.of(new Message.User("Go."));
        OpenAiRequestWriter writer = new OpenAiRequestWriter();

        assertEquals(
                List.of(
                        Json.read("{\"model\":\"o4-mini\",\"reasoning_effort\":\"high\",\"stream\":true,"
                                + "\"stream_options\":{\"include_usage\":true},"
                                + "\"messages\":[{\"role\":\"user\",\"content\":\"Go.\"}]}"),
                        Json.read("{\"model\":\"deepseek-reasoner\",\"reasoning_effort\":\"low\","
                                + "\"thinking\":{\"type\":\"enabled\"},\"stream\":true,"
                                + "\"stream_options\":{\"include_usage\":true},"
                                + "\"messages\":[{\"role\":\"user\",\"content\":\"Go.\"}]}"),
                        Json.read("{\"model\":\"o4-mini\",\"stream\":true,"
                                + "\"stream_options\":{\"include_usage\":true},"
                                + "\"messages\":[{\"role\":\"user\",\"content\":\"Go.\"}]}")),
                List.of(
                        Json.read(text(writer.write(
                                new ModelRequest("o4-mini", history, List.of(), Optional.of(ReasoningEffort.HIGH))))),
                        Json.read(text(writer.write(new ModelRequest(
                                "deepseek-reasoner", history, List.of(), Optional.of(ReasoningEffort.LOW))))),
                        Json.read(text(writer.write(new ModelRequest("o4-mini", history, List.of()))))));
    }

    /** What goes back of a message depends on the model asked, so a model switch must not reuse its old JSON. */
    @Test
    void aMessageWrittenForOneModelIsWrittenAfreshForTheNext() {
        List<Message> history = List.of(
                new Message.User("Go."),
                new Message.Assistant(
                        "",
                        List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}")),
                        "thinking",
                        new ProviderState(
                                "openai", "{\"model\":\"deepseek-reasoner\",\"field\":\"reasoning_content\"}")),
                new Message.ToolResult("c1", "read_file", "A", false));
        OpenAiRequestWriter reused = new OpenAiRequestWriter();
        reused.write(new ModelRequest("deepseek-reasoner", history, TOOLS));

        assertEquals(
                text(new OpenAiRequestWriter().write(new ModelRequest("gpt-x", history, TOOLS))),
                text(reused.write(new ModelRequest("gpt-x", history, TOOLS))));
    }

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }
}
