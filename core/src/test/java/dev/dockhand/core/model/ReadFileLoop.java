package dev.dockhand.core.model;

import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.util.List;

/**
 * The agent loop the provider tests play tool rounds through: one client, and one tool, a read_file that answers
 * "contents of PATH" ({@link ProviderConformanceTest.FakeReadFile}), every call allowed.
 */
final class ReadFileLoop {
    private ReadFileLoop() {}

    static AgentLoop of(
            Path workspace,
            ModelClient client,
            String model,
            Conversation conversation,
            int maxRequests,
            AgentEventSink events) {
        ToolRegistry registry = new ToolRegistry(List.of(new ProviderConformanceTest.FakeReadFile()));
        CoreToolScheduler scheduler = new CoreToolScheduler(
                registry,
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                new EventRecorder());
        return new AgentLoop(client, model, registry.declarations(), scheduler, conversation, maxRequests, events);
    }

    /** A loop of ten requests at most, from a new conversation, whose events nobody reads. */
    static AgentLoop of(Path workspace, ModelClient client, String model) {
        return of(workspace, client, model, new Conversation("SYSTEM"), 10, new EventRecorder());
    }
}
