package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A call the user cancels while it runs ends cancelled, whatever the tool returns on its way out. */
class CancelledWhileRunningTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final Cancellation cancel = new Cancellation();

    /** Stands for a search that stops at the cancel and returns what it found so far as an ordinary result. */
    private final TestTools.Base search = new TestTools.Base("search", ToolKind.READ) {
        @Override
        public ToolResult execute(Params params, ToolContext context) {
            runs.add(params.text());
            context.output().line("found a.txt");
            cancel.cancel();
            return ToolResult.success("a.txt", "1 file");
        }
    };

    /** Returns its own failure; the call after it in the round is the one that gets cancelled. */
    private final TestTools.Base timesOut = new TestTools.Base("slow", ToolKind.EXECUTE) {
        @Override
        public ToolResult execute(Params params, ToolContext context) {
            runs.add(params.text());
            return new ToolResult(
                    "Command timed out.\npartial output", "timed out", Optional.of(ToolErrorType.EXECUTION_FAILED));
        }
    };

    private final TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);

    private List<CompletedCall> round(List<Tool<?>> tools, ToolCall... calls) {
        return new CoreToolScheduler(
                        new ToolRegistry(tools),
                        TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                        request -> ApprovalDecision.allowOnce(),
                        ApprovalMode.YOLO,
                        events)
                .runRound(List.of(calls), cancel);
    }

    private static ToolCall call(String id, String name, String text) {
        return new ToolCall(id, name, "{\"text\":\"" + text + "\"}");
    }

    // qwen-code coreToolScheduler.test.ts: "CoreToolScheduler cancellation during executing with live output: sets
    // status to cancelled and preserves last output"; also "marks cancellation spans with UNSET status" (a tool that
    // resolves normally after the abort ends cancelled)
    @Test
    void aResultReturnedAfterTheCancelEndsCancelledAndKeepsWhatTheToolReturned() {
        List<CompletedCall> done = round(List.of(search), call("s1", "search", "*.txt"));

        assertEquals(
                new ToolResult(
                        "a.txt\n[The user cancelled this call while it ran, so this output may be incomplete.]",
                        "1 file",
                        Optional.of(ToolErrorType.CANCELLED)),
                done.get(0).result());
        assertEquals(ToolCallStatus.CANCELLED, done.get(0).status());
        assertEquals(
                List.of(new AgentEvent.ToolOutput("s1", "found a.txt")), events.ofType(AgentEvent.ToolOutput.class));
    }

    // qwen-code coreToolScheduler.test.ts: "keeps a tool-produced timeout as an error after a later parent abort"
    @Test
    void aFailureTheToolReportedBeforeTheCancelStaysItsOwn() {
        List<CompletedCall> done =
                round(List.of(timesOut, search), call("t1", "slow", "sleep 10"), call("s1", "search", "x"));

        assertEquals(
                new ToolResult(
                        "Command timed out.\npartial output", "timed out", Optional.of(ToolErrorType.EXECUTION_FAILED)),
                done.get(0).result());
        assertEquals(List.of(ToolCallStatus.ERROR, ToolCallStatus.CANCELLED), statuses(done));
    }

    // qwen-code coreToolScheduler.test.ts: "CoreToolScheduler Sequential Execution: should cancel subsequent tools
    // when the signal is aborted."
    @Test
    void aCancelDuringTheSecondCallLeavesTheFirstSucceededAndTheRestCancelled() {
        List<CompletedCall> done = round(
                List.of(edit, search),
                call("1", "edit", "first"),
                call("2", "search", "x"),
                call("3", "edit", "third"));

        assertEquals(
                List.of(ToolCallStatus.SUCCESS, ToolCallStatus.CANCELLED, ToolCallStatus.CANCELLED), statuses(done));
        assertEquals(List.of("first"), edit.runs);
        assertEquals(
                "The user cancelled this call before it started.",
                done.get(2).result().llmContent());
    }

    private static List<ToolCallStatus> statuses(List<CompletedCall> done) {
        return done.stream().map(CompletedCall::status).toList();
    }
}
