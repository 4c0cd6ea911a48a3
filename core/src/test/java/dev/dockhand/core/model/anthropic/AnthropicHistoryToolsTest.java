package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.WireFormat;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request that offers no tool while its history holds tool calls (every tool excluded, a project's {@code
 * tools.core} sharing none with the user's, a session resumed so) declares the tools the history calls, as Dockhand
 * knows them or as gone, with {@code tool_choice} none: the Messages API refuses tool blocks in a request without
 * tools, and the model may call none of them.
 */
class AnthropicHistoryToolsTest {
    private static final String EXCLUDED = "the user excluded it (--excluded-tools)";

    @TempDir
    Path workspace;

    private static final List<Message> TWO_ROUNDS = List.of(
            new Message.System("SYSTEM"),
            new Message.User("go"),
            new Message.Assistant("", List.of(new ToolCall("toolu_1", "read_file", "{\"path\":\"a\"}"))),
            new Message.ToolResult("toolu_1", "read_file", "A", false),
            new Message.Assistant("", List.of(new ToolCall("toolu_2", "fetch_page", "{}"))),
            new Message.ToolResult("toolu_2", "fetch_page", "B", false),
            new Message.Assistant("Done.", List.of()),
            new Message.User("and now?"));

    private static final ToolDeclaration READ_FILE = new ToolDeclaration(
            "read_file",
            "Reads a file.",
            Schema.object().required("path", Schema.string("p")).build());

    private static ObjectNode declared(String name, String description, ObjectNode schema) {
        ObjectNode tool = Json.object().put("name", name).put("description", description);
        tool.set("input_schema", schema);
        return tool;
    }

    @Test
    void aRequestOfferingNoToolDeclaresTheToolsItsHistoryCallsAndLetsTheModelCallNone() {
        ObjectNode body = AnthropicRequestWriter.write(
                new ModelRequest("m", TWO_ROUNDS, List.of(), Optional.of(ReasoningEffort.LOW), List.of(READ_FILE)),
                4096);

        ArrayNode tools = Json.MAPPER.createArrayNode();
        tools.add(declared(READ_FILE.name(), READ_FILE.description(), READ_FILE.parameters()));
        tools.add(declared("fetch_page", HistoryTools.GONE, Json.object().put("type", "object"))
                .set("cache_control", Json.object().put("type", "ephemeral")));
        assertEquals(tools, body.get("tools"));
        assertEquals(Json.object().put("type", "none"), body.get("tool_choice"));
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(body));
    }

    @Test
    void aHistoryWithoutToolCallsStillGoesWithoutTools() {
        ObjectNode body = AnthropicRequestWriter.write(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of(), Optional.empty(), List.of(READ_FILE)),
                4096);

        assertEquals(
                Json.read("{\"model\":\"m\",\"max_tokens\":4096,\"stream\":true,\"messages\":[{\"role\":\"user\","
                        + "\"content\":[{\"type\":\"text\",\"text\":\"hi\",\"cache_control\":{\"type\":"
                        + "\"ephemeral\"}}]}]}"),
                body);
    }

    @Test
    void aSessionThatUsedToolsGoesOnWithEveryToolExcludedAndAnswersACallMadeAnyway() throws Exception {
        Tool<?> readFile = new AnthropicLoops.Answering("read_file", AnthropicLoops.Answering::echo);
        Conversation conversation = new Conversation("SYSTEM");
        try (ScriptedModel server = new ScriptedModel()) {
            server.enqueue(AnthropicLoops.fixture("tool_call"));
            server.enqueue(AnthropicLoops.fixture("text"));
            ToolRegistry offering = new ToolRegistry(List.of(readFile));
            loop(server, offering, conversation).run("read the readme", new Cancellation());
            server.takeRequest();
            server.takeRequest();

            // Resumed with every tool excluded: the scripted model, like the API, refuses tool blocks without tools.
            ToolRegistry none = new ToolRegistry(List.of(), Map.of("read_file", EXCLUDED), List.of(readFile));
            server.enqueue(AnthropicLoops.fixture("tool_call"));
            server.enqueue(AnthropicLoops.fixture("text"));
            TurnResult result = loop(server, none, conversation).run("and now?", new Cancellation());

            JsonNode request = server.takeRequest();
            ArrayNode tools = Json.MAPPER.createArrayNode();
            tools.add(declared("read_file", readFile.description(), readFile.parameterSchema())
                    .set("cache_control", Json.object().put("type", "ephemeral")));
            assertEquals(tools, request.get("tools"));
            assertEquals(Json.object().put("type", "none"), request.get("tool_choice"));
            // A gateway that let the model call anyway: the call is answered, unrun, as for any withheld tool.
            assertEquals(
                    new Message.ToolResult(
                            "toolu_1",
                            "read_file",
                            "The read_file call was not run: " + EXCLUDED + ", so it is not available in this"
                                    + " session. Do without it: this session offers no tools.",
                            true),
                    conversation.messages().get(conversation.messages().size() - 2));
            assertEquals(TurnResult.Outcome.ANSWERED, result.outcome());
            assertEquals(Json.object().put("type", "none"), server.takeRequest().get("tool_choice"));
        }
    }

    private AgentLoop loop(ScriptedModel server, ToolRegistry registry, Conversation conversation) {
        EventRecorder events = new EventRecorder();
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                events);
        return new AgentLoop(
                AnthropicLoops.client(server, true),
                "test-model",
                registry::declarations,
                scheduler,
                conversation,
                10,
                events);
    }
}
