package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No fault in one call breaks the round: whatever a tool, the approver or a listener throws, each call gets exactly
 * one result, and the calls after it still run.
 */
class RoundFaultsTest {
    @TempDir
    Path workspace;

    private final List<AgentEvent> events = new CopyOnWriteArrayList<>();

    private List<CompletedCall> run(Approver approver, ApprovalMode mode, AgentEventSink sink, Tool<?>... tools) {
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(tools)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                approver,
                mode,
                sink);
        return scheduler.runRound(
                List.of(
                        new ToolCall("1", tools[0].name(), "{\"text\":\"x\"}"),
                        new ToolCall("2", "echo", "{\"text\":\"y\"}")),
                new Cancellation());
    }

    private List<CompletedCall> run(Tool<?> faulty, TestTools.Echo echo) {
        return run(request -> ApprovalDecision.allowOnce(), ApprovalMode.YOLO, events::add, faulty, echo);
    }

    private static List<ToolCallStatus> statuses(List<CompletedCall> done) {
        return done.stream().map(CompletedCall::status).toList();
    }

    /** A tool whose one step throws what it is given. */
    private static final class Faulty extends TestTools.Base {
        private final String step;
        private final Throwable fault;

        Faulty(String step, Throwable fault) {
            super("faulty", ToolKind.EDIT);
            this.step = step;
            this.fault = fault;
        }

        private void maybeThrow(String now) {
            if (now.equals(step)) {
                if (fault instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw (Error) fault;
            }
        }

        @Override
        public Optional<String> validate(Params params) {
            maybeThrow("validate");
            return Optional.empty();
        }

        @Override
        public String summarize(Params params) {
            maybeThrow("summarize");
            return params.text();
        }

        @Override
        public Optional<String> preview(Params params, Workspace workspace) {
            maybeThrow("preview");
            return Optional.empty();
        }

        @Override
        public ToolResult execute(Params params, ToolContext context) {
            maybeThrow("execute");
            return ToolResult.success("ran", "ran");
        }
    }

    @Test
    void aToolThatThrowsInValidateIsAnsweredAndTheNextCallRuns() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);

        List<CompletedCall> done = run(new Faulty("validate", new IllegalStateException("bad check")), echo);

        assertEquals(List.of(ToolCallStatus.ERROR, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(Optional.of(ToolErrorType.INTERNAL), done.get(0).result().error());
        assertTrue(
                done.get(0).result().llmContent().contains("bad check"),
                done.get(0).result().llmContent());
        assertEquals(List.of("y"), echo.runs);
    }

    @Test
    void aToolThatThrowsInSummarizeIsAnswered() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);

        List<CompletedCall> done = run(new Faulty("summarize", new NullPointerException("no summary")), echo);

        assertEquals(List.of(ToolCallStatus.ERROR, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(Optional.of(ToolErrorType.INTERNAL), done.get(0).result().error());
    }

    @Test
    void aStackOverflowWhileExecutingIsAnErrorResultNotACrash() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);

        List<CompletedCall> done = run(new Faulty("execute", new StackOverflowError()), echo);

        assertEquals(List.of(ToolCallStatus.ERROR, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(Optional.of(ToolErrorType.INTERNAL), done.get(0).result().error());
        assertTrue(done.get(0).result().llmContent().contains("StackOverflowError"));
    }

    @Test
    void aPreviewThatThrowsStillAsksWithoutIt() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);
        List<ApprovalRequest> asked = new CopyOnWriteArrayList<>();

        List<CompletedCall> done = run(
                request -> {
                    asked.add(request);
                    return ApprovalDecision.allowOnce();
                },
                ApprovalMode.DEFAULT,
                events::add,
                new Faulty("preview", new IllegalArgumentException("no diff")),
                echo);

        assertEquals(List.of(ToolCallStatus.SUCCESS, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(Optional.empty(), asked.get(0).preview());
    }

    @Test
    void anApproverThatThrowsRefusesThatCallOnly() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);
        Faulty edit = new Faulty("none", new IllegalStateException());

        List<CompletedCall> done = run(
                request -> {
                    throw new java.io.UncheckedIOException(new java.io.IOException("terminal gone"));
                },
                ApprovalMode.DEFAULT,
                events::add,
                edit,
                echo);

        assertEquals(List.of(ToolCallStatus.ERROR, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(
                Optional.of(ToolErrorType.NOT_APPROVED), done.get(0).result().error());
        assertTrue(
                done.get(0).result().llmContent().contains("terminal gone"),
                done.get(0).result().llmContent());
    }

    @Test
    void aListenerThatThrowsDoesNotLoseAnyCall() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);
        TestTools.Echo first = new TestTools.Echo("first", ToolKind.EDIT);

        List<CompletedCall> done = run(
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.YOLO,
                event -> {
                    throw new IllegalStateException("renderer bug");
                },
                first,
                echo);

        assertEquals(List.of(ToolCallStatus.SUCCESS, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(List.of("x"), first.runs);
        assertEquals(List.of("y"), echo.runs);
    }

    // gemini-cli coreToolScheduler.test.ts: "should not double-report completed tools when concurrent completions
    // occur"
    @Test
    void everyCallEndsWithExactlyOneFinishedEvent() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);

        run(new Faulty("execute", new OutOfMemoryError("simulated")), echo);

        assertEquals(
                List.of("1", "2"),
                events.stream()
                        .filter(AgentEvent.ToolCallFinished.class::isInstance)
                        .map(event ->
                                ((AgentEvent.ToolCallFinished) event).call().id())
                        .toList());
    }
}
