package dev.dockhand.core.testing;

import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.util.List;

/** An agent loop talking to a scripted OpenAI-compatible model, with the system prompt "SYSTEM" and no commands. */
public final class TestLoops {
    private TestLoops() {}

    public static AgentLoop loop(
            ScriptedModel model,
            Path workspace,
            AgentEventSink events,
            ApprovalMode mode,
            Approver approver,
            int maxTurns,
            List<? extends Tool<?>> tools) {
        ToolRegistry registry = new ToolRegistry(tools);
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                approver,
                mode,
                events);
        return new AgentLoop(
                OpenAiClient.create(model.baseUrl(), "sk-test"),
                "test-model",
                registry.declarations(),
                scheduler,
                new Conversation("SYSTEM"),
                maxTurns,
                events);
    }
}
