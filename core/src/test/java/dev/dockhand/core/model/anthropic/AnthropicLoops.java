package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import okhttp3.mockwebserver.MockResponse;

/** Agent loops over an {@link AnthropicClient} talking to a scripted Messages API, with tools that answer anything. */
final class AnthropicLoops {
    static final String KEY = "sk-ant-test";

    private AnthropicLoops() {}

    /** A fixture of {@code providers/anthropic/} as the API would serve it. */
    static MockResponse fixture(String name) {
        return dev.dockhand.core.testing.ProviderFixtures.stream("anthropic", name);
    }

    static MockResponse sse(String body) {
        return new MockResponse().setHeader("Content-Type", "text/event-stream").setBody(body);
    }

    static AnthropicClient client(ScriptedModel server, boolean caching) {
        return new AnthropicClient(server.rootUrl(), KEY, 4096, Timeouts.DEFAULT, caching);
    }

    /** A loop with model "test-model" and these tools. */
    static AgentLoop loop(
            ScriptedModel server,
            Path workspace,
            boolean caching,
            int maxRequests,
            String systemPrompt,
            List<Tool<?>> tools) {
        EventRecorder events = new EventRecorder();
        ToolRegistry registry = new ToolRegistry(tools);
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                events);
        return new AgentLoop(
                client(server, caching),
                "test-model",
                registry.declarations(),
                scheduler,
                new Conversation(systemPrompt),
                maxRequests,
                events);
    }

    /** A loop with system prompt "SYSTEM", model "test-model", and one {@link Answering} tool per name. */
    static AgentLoop loop(ScriptedModel server, Path workspace, String... toolNames) {
        return loop(
                server,
                workspace,
                true,
                10,
                "SYSTEM",
                java.util.Arrays.stream(toolNames)
                        .<Tool<?>>map(name -> new Answering(name, Answering::echo))
                        .toList());
    }

    /**
     * A read-only tool of any name taking the arguments the recorded tools took (all optional strings) and answering
     * what {@code answer} makes of them.
     */
    static final class Answering implements Tool<JsonNode> {
        private final String name;
        private final Function<JsonNode, String> answer;

        Answering(String name, Function<JsonNode, String> answer) {
            this.name = name;
            this.answer = answer;
        }

        /** The arguments as compact JSON. */
        static String echo(JsonNode arguments) {
            return Json.write(arguments);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "The " + name + " tool.";
        }

        @Override
        public ObjectNode parameterSchema() {
            return Schema.object()
                    .optional("path", Schema.string("A path."))
                    .optional("file_path", Schema.string("An absolute path."))
                    .optional("command", Schema.string("A command."))
                    .optional("description", Schema.string("What the command does."))
                    .build();
        }

        @Override
        public ToolKind kind() {
            return ToolKind.READ;
        }

        @Override
        public Class<JsonNode> paramsType() {
            return JsonNode.class;
        }

        @Override
        public String summarize(JsonNode params) {
            return name;
        }

        @Override
        public ToolResult execute(JsonNode params, ToolContext context) {
            return ToolResult.success(answer.apply(params), name);
        }
    }
}
