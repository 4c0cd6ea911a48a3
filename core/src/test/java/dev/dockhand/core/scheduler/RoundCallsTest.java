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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the calls of one reply are grouped, answered and asked about, as the anchors' scheduler tests require. */
class RoundCallsTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final List<ApprovalRequest> asked = new ArrayList<>();

    private CoreToolScheduler scheduler(ApprovalMode mode, ApprovalDecision answer, Tool<?>... tools) {
        return new CoreToolScheduler(
                new ToolRegistry(List.of(tools)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    asked.add(request);
                    return answer;
                },
                mode,
                events);
    }

    private static ToolCall call(String id, String name, String text) {
        return new ToolCall(id, name, "{\"text\":\"" + text + "\"}");
    }

    // qwen-code coreToolScheduler.test.ts: "does not dedupe requests with empty callIds in one batch"; its "executes
    // only the first request for duplicate callIds in one batch" is a deliberate difference (docs/scheduler.md: both
    // calls run and both are answered, in order)
    @Test
    void callsSharingAnIdAllRunAndAreAnsweredInOrder() {
        TestTools.Echo read = new TestTools.Echo("read", ToolKind.READ);

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), read)
                .runRound(
                        List.of(
                                call("", "read", "a.ts"),
                                call("", "read", "b.ts"),
                                call("dup", "read", "c.ts"),
                                call("dup", "read", "d.ts")),
                        new Cancellation());

        assertEquals(
                List.of("echo: a.ts", "echo: b.ts", "echo: c.ts", "echo: d.ts"),
                done.stream().map(completed -> completed.result().llmContent()).toList());
        assertEquals(
                List.of("", "", "dup", "dup"),
                done.stream().map(completed -> completed.call().id()).toList());
        assertEquals(4, events.ofType(AgentEvent.ToolCallFinished.class).size());
    }

    // qwen-code coreToolScheduler.test.ts: "should partition mixed safe/unsafe tools into correct batches"
    @Test
    void readsBeforeAnEditRunTogetherThenTheEditAloneThenTheReadAfterIt() {
        TestTools.Rendezvous meet = new TestTools.Rendezvous("meet", 2);
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        TestTools.Echo read = new TestTools.Echo("read", ToolKind.READ);

        List<CompletedCall> done = scheduler(ApprovalMode.YOLO, ApprovalDecision.allowOnce(), meet, edit, read)
                .runRound(
                        List.of(
                                call("1", "meet", "a"),
                                call("2", "meet", "b"),
                                call("3", "edit", "e"),
                                call("4", "read", "r")),
                        new Cancellation());

        assertEquals(
                List.of("met a", "met b", "echo: e", "echo: r"),
                done.stream().map(completed -> completed.result().llmContent()).toList());
        List<String> order = events.all().stream()
                .map(event -> {
                    if (event instanceof AgentEvent.ToolCallUpdated update
                            && update.status() == ToolCallStatus.EXECUTING) {
                        return "start " + update.call().id();
                    }
                    return event instanceof AgentEvent.ToolCallFinished finished
                            ? "end " + finished.call().id()
                            : null;
                })
                .filter(step -> step != null)
                .toList();
        assertEquals(List.of("start 1", "start 2", "end 1", "end 2", "start 3", "end 3", "start 4", "end 4"), order);
    }

    // qwen-code coreToolScheduler.test.ts: "preserves display output when a tool omits model-facing content"
    @Test
    void aCallThatReturnsNoTextTellsTheModelItRanWithNoOutput() {
        TestTools.Base quiet = new TestTools.Base("quiet", ToolKind.READ) {
            @Override
            public ToolResult execute(Params params, ToolContext context) {
                return params.text().equals("fail")
                        ? ToolResult.error(ToolErrorType.EXECUTION_FAILED, "")
                        : ToolResult.success("", "completed");
            }
        };

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), quiet)
                .runRound(List.of(call("q1", "quiet", "ok"), call("q2", "quiet", "fail")), new Cancellation());

        assertEquals(
                List.of(
                        ToolResult.success("(quiet completed with no output)", "completed"),
                        new ToolResult(
                                "(quiet failed with no output)",
                                "(quiet failed with no output)",
                                Optional.of(ToolErrorType.EXECUTION_FAILED))),
                done.stream().map(CompletedCall::result).toList());
    }

    // qwen-code coreToolScheduler.test.ts: "does not auto-approve an interaction-required sibling after ProceedAlways"
    @Test
    void allowingAToolForTheSessionDoesNotAnswerALaterCallOfTheRoundThatWritesAProtectedPath() throws Exception {
        Files.createDirectories(workspace.resolve(".git"));
        Files.writeString(workspace.resolve(".git/config"), "[core]\n");
        TestTools.Echo write = new TestTools.Echo("write", ToolKind.EDIT) {
            @Override
            public List<String> writes(Params params) {
                return List.of(params.text());
            }
        };

        scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowForSession(), write)
                .runRound(
                        List.of(
                                call("w1", "write", "notes.txt"),
                                call("w2", "write", ".git/config"),
                                call("w3", "write", "todo.txt")),
                        new Cancellation());

        assertEquals(
                List.of("notes.txt", ".git/config"),
                asked.stream().map(ApprovalRequest::summary).toList());
        assertEquals(List.of("notes.txt", ".git/config", "todo.txt"), write.runs);
    }
}
