package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallCheckpointsTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final List<String> log = new ArrayList<>();

    private CoreToolScheduler scheduler(CallCheckpoints checkpoints, Tool<?>... tools) {
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(tools)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.YOLO,
                events);
        scheduler.setCheckpoints(checkpoints);
        return scheduler;
    }

    private static ToolCall call(String id, String name) {
        return new ToolCall(id, name, "{\"text\":\"" + id + "\"}");
    }

    @Test
    void editsCommandsAndMcpCallsThatMayWriteAreCheckpointedAroundTheirRunReadsAndFetchesAreNot() {
        CallCheckpoints recording = (call, summary) -> {
            log.add("before " + call.id() + " " + summary);
            return () -> log.add("after " + call.id());
        };
        CoreToolScheduler scheduler = scheduler(
                recording,
                new TestTools.Echo("read", ToolKind.READ),
                new TestTools.Echo("edit", ToolKind.EDIT),
                new TestTools.Echo("run", ToolKind.EXECUTE),
                new TestTools.Echo("fetch", ToolKind.FETCH));

        scheduler.runRound(
                List.of(call("r1", "read"), call("e1", "edit"), call("x1", "run"), call("f1", "fetch")),
                new Cancellation());

        assertEquals(List.of("before e1 e1", "after e1", "before x1 x1", "after x1"), log);
    }

    @Test
    void aCheckpointThatFailsIsReportedAndTheCallRunsAndIsAnsweredAllTheSame() {
        CallCheckpoints failing = (call, summary) -> {
            throw new IOException("the disk is full");
        };
        CoreToolScheduler scheduler = scheduler(failing, new TestTools.Echo("edit", ToolKind.EDIT));

        List<CompletedCall> done = scheduler.runRound(List.of(call("e1", "edit")), new Cancellation());

        assertEquals(ToolResult.success("echo: e1", "echoed"), done.get(0).result());
        assertEquals(
                List.of(new AgentEvent.Warning("No checkpoint was taken before the edit call (the disk is full);"
                        + " what it changes cannot be undone with /undo.")),
                events.all().stream()
                        .filter(AgentEvent.Warning.class::isInstance)
                        .toList());
    }

    @Test
    void changesThatCannotBeRecordedAreReportedAndTheCallIsAnsweredAllTheSame() {
        CallCheckpoints failingAfter = (call, summary) -> () -> {
            throw new IllegalStateException("the store is gone");
        };
        CoreToolScheduler scheduler = scheduler(failingAfter, new TestTools.Echo("run", ToolKind.EXECUTE));

        List<CompletedCall> done = scheduler.runRound(List.of(call("x1", "run")), new Cancellation());

        assertEquals(ToolResult.success("echo: x1", "echoed"), done.get(0).result());
        assertEquals(
                List.of(new AgentEvent.Warning("What the run call changed was not recorded (the store is gone);"
                        + " /undo restores from the checkpoint before it all the same.")),
                events.all().stream()
                        .filter(AgentEvent.Warning.class::isInstance)
                        .toList());
    }
}
