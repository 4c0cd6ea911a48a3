package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoreToolSchedulerTest {
    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();
    private final List<ApprovalRequest> asked = new ArrayList<>();

    private CoreToolScheduler scheduler(ApprovalMode mode, ApprovalDecision answer, Tool<?>... tools) {
        Approver approver = request -> {
            asked.add(request);
            return answer;
        };
        return new CoreToolScheduler(
                new ToolRegistry(List.of(tools)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                approver,
                mode,
                events);
    }

    private static ToolCall call(String id, String name, String text) {
        return new ToolCall(id, name, "{\"text\":\"" + text + "\"}");
    }

    private static List<ToolCallStatus> statuses(List<CompletedCall> done) {
        return done.stream().map(CompletedCall::status).toList();
    }

    @Test
    void aSuccessfulCallGoesThroughEveryStateInOrder() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.EDIT);
        ToolCall call = call("c1", "echo", "x");

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), echo)
                .runRound(List.of(call), new Cancellation());

        assertEquals(ToolResult.success("echo: x", "echoed"), done.get(0).result());
        List<AgentEvent> expected = List.of(
                new AgentEvent.ToolCallUpdated(call, ToolCallStatus.VALIDATING, ""),
                new AgentEvent.ToolCallUpdated(call, ToolCallStatus.AWAITING_APPROVAL, "x"),
                new AgentEvent.ToolCallUpdated(call, ToolCallStatus.SCHEDULED, "x"),
                new AgentEvent.ToolCallUpdated(call, ToolCallStatus.EXECUTING, "x"));
        assertEquals(expected, events.all().subList(0, 4));
        AgentEvent.ToolCallFinished finished =
                (AgentEvent.ToolCallFinished) events.all().get(4);
        assertEquals(ToolCallStatus.SUCCESS, finished.status());
    }

    // gemini-cli coreToolScheduler.test.ts: "should return POLICY_VIOLATION error type and informative message when
    // denied in Plan Mode"
    @Test
    void planModeRefusesMutationsWithoutAsking() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);

        List<CompletedCall> done = scheduler(ApprovalMode.PLAN, ApprovalDecision.allowOnce(), edit)
                .runRound(List.of(call("p1", "edit", "x")), new Cancellation());

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        "The edit call was not run: the session is in plan"
                                + " mode, where only read-only tools run. Describe what you would do instead; the user can switch"
                                + " modes to let it run."),
                done.get(0).result());
        assertEquals(List.of(), asked);
        assertEquals(List.of(), edit.runs);
    }

    @Test
    void allowForSessionStopsAskingForThatTool() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        CoreToolScheduler scheduler = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowForSession(), edit);

        scheduler.runRound(List.of(call("a1", "edit", "1")), new Cancellation());
        scheduler.runRound(List.of(call("a2", "edit", "2")), new Cancellation());

        assertEquals(1, asked.size());
        assertEquals(List.of("1", "2"), edit.runs);
    }

    @Test
    void allowingAToolsGroupStopsAskingForEveryToolOfItAndNoOther() {
        TestTools.Echo one = new Grouped("mcp__s__one", "mcp server s");
        TestTools.Echo two = new Grouped("mcp__s__two", "mcp server s");
        TestTools.Echo other = new Grouped("mcp__t__one", "mcp server t");
        CoreToolScheduler scheduler =
                scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowGroupForSession(), one, two, other);

        scheduler.runRound(List.of(call("a1", "mcp__s__one", "1")), new Cancellation());
        scheduler.runRound(List.of(call("a2", "mcp__s__two", "2")), new Cancellation());
        scheduler.runRound(List.of(call("a3", "mcp__t__one", "3")), new Cancellation());

        assertEquals(
                List.of("mcp__s__one", "mcp__t__one"),
                asked.stream().map(request -> request.call().name()).toList());
        assertEquals(List.of("1"), one.runs);
        assertEquals(List.of("2"), two.runs);
    }

    /** A tool of an approval group, as an MCP server's are. */
    private static final class Grouped extends TestTools.Echo {
        private final String group;

        Grouped(String name, String group) {
            super(name, ToolKind.EXECUTE);
            this.group = group;
        }

        @Override
        public java.util.Optional<String> approvalGroup() {
            return java.util.Optional.of(group);
        }
    }

    // codex tool_parallelism.rs: "read_file_tools_run_in_parallel"
    @Test
    void readCallsOfARoundRunConcurrently() {
        TestTools.Rendezvous meet = new TestTools.Rendezvous("meet", 3);

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), meet)
                .runRound(
                        List.of(call("r1", "meet", "a"), call("r2", "meet", "b"), call("r3", "meet", "c")),
                        new Cancellation());

        assertEquals(
                List.of("met a", "met b", "met c"),
                done.stream().map(completed -> completed.result().llmContent()).toList());
    }

    @Test
    void readCallsRunTenAtATimeEachTenStartingOnceTheTenBeforeHaveFinished() {
        TestTools.Echo read = new TestTools.Echo("read", ToolKind.READ);
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 1; i <= 25; i++) {
            calls.add(call("r" + i, "read", "c" + i));
        }

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), read)
                .runRound(calls, new Cancellation());

        assertEquals(
                calls.stream().map(ToolCall::id).toList(),
                done.stream().map(completed -> completed.call().id()).toList());
        assertEquals(
                List.of(ToolCallStatus.SUCCESS),
                statuses(done).stream().distinct().toList());
        List<String> order = events.all().stream()
                .<String>mapMulti((event, out) -> {
                    if (event instanceof AgentEvent.ToolCallUpdated update
                            && update.status() == ToolCallStatus.EXECUTING) {
                        out.accept("start " + update.call().id());
                    } else if (event instanceof AgentEvent.ToolCallFinished finished) {
                        out.accept("end " + finished.call().id());
                    }
                })
                .toList();
        List<String> expected = new ArrayList<>();
        for (int first = 1; first <= 25; first += CoreToolScheduler.MAX_TOGETHER) {
            int last = Math.min(25, first + CoreToolScheduler.MAX_TOGETHER - 1);
            for (int i = first; i <= last; i++) {
                expected.add("start r" + i);
            }
            for (int i = first; i <= last; i++) {
                expected.add("end r" + i);
            }
        }
        assertEquals(expected, order);
    }

    // gemini-cli coreToolScheduler.test.ts: "should execute tool calls in a batch sequentially"; codex
    // tool_parallelism.rs: "shell_tools_run_in_parallel" is a deliberate difference (docs/scheduler.md)
    @Test
    void mutatingCallsRunOneAtATimeInTheModelsOrder() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        TestTools.Echo read = new TestTools.Echo("read", ToolKind.READ);

        scheduler(ApprovalMode.YOLO, ApprovalDecision.allowOnce(), edit, read)
                .runRound(
                        List.of(
                                call("1", "edit", "first"),
                                call("2", "read", "r"),
                                call("3", "edit", "second"),
                                call("4", "edit", "third")),
                        new Cancellation());

        assertEquals(List.of("first", "second", "third"), edit.runs);
        List<String> executing = events.ofType(AgentEvent.ToolCallUpdated.class).stream()
                .filter(update -> update.status() == ToolCallStatus.EXECUTING)
                .map(update -> update.call().id())
                .toList();
        assertEquals(List.of("1", "2", "3", "4"), executing);
    }

    @Test
    void aThrowingToolBecomesAnErrorResultAndTheRoundGoesOn() {
        TestTools.Echo echo = new TestTools.Echo("echo", ToolKind.READ);

        List<CompletedCall> done = scheduler(
                        ApprovalMode.YOLO, ApprovalDecision.allowOnce(), new TestTools.Throwing("bad"), echo)
                .runRound(List.of(call("1", "bad", "x"), call("2", "echo", "y")), new Cancellation());

        assertEquals(List.of(ToolCallStatus.ERROR, ToolCallStatus.SUCCESS), statuses(done));
        assertEquals(Optional.of(ToolErrorType.INTERNAL), done.get(0).result().error());
    }

    @Test
    void aResultOverTheBudgetIsCutAndKeptWholeInAFile() throws Exception {
        TestTools.Base huge = new TestTools.Base("huge", ToolKind.READ) {
            @Override
            public ToolResult execute(Params params, dev.dockhand.core.tool.ToolContext context) {
                StringBuilder text = new StringBuilder();
                for (int i = 1; i <= 5000; i++) {
                    text.append("row ").append(i).append('\n');
                }
                return ToolResult.success(text.toString(), "5000 rows");
            }
        };

        List<CompletedCall> done = scheduler(ApprovalMode.YOLO, ApprovalDecision.allowOnce(), huge)
                .runRound(List.of(call("big1", "huge", "x")), new Cancellation());

        String content = done.get(0).result().llmContent();
        Path saved = workspace
                .resolveSibling(workspace.getFileName() + "-output")
                .resolve(dev.dockhand.core.output.OutputFilesNames.first("big1"));
        assertTrue(content.startsWith("row 1\nrow 2\n"), content);
        assertTrue(content.contains("lines omitted. The whole output (5000 lines) is in " + saved), content);
        assertTrue(content.endsWith("row 5000"), content);
        assertEquals(5000, java.nio.file.Files.readAllLines(saved).size());
        assertEquals("5000 rows", done.get(0).result().display());
    }

    @Test
    void theApproverSeesThePreviewOfAnEdit() {
        TestTools.Base previewing = new TestTools.Base("change", ToolKind.EDIT) {
            @Override
            public Optional<String> preview(Params params, dev.dockhand.core.tool.Workspace workspace) {
                return Optional.of("--- a/x\n+++ b/x\n");
            }

            @Override
            public ToolResult execute(Params params, dev.dockhand.core.tool.ToolContext context) {
                return ToolResult.success("changed", "changed");
            }
        };

        scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), previewing)
                .runRound(List.of(call("e1", "change", "x")), new Cancellation());

        assertEquals(
                List.of(new ApprovalRequest(
                        call("e1", "change", "x"), ToolKind.EDIT, "x", Optional.of("--- a/x\n+++ b/x\n"))),
                asked);
    }

    // gemini-cli coreToolScheduler.test.ts: "should cancel subsequent tools when the signal is aborted."
    @Test
    void nothingStartsAfterACancel() throws Exception {
        TestTools.Blocking slow = new TestTools.Blocking("slow", ToolKind.EXECUTE);
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        CoreToolScheduler scheduler = scheduler(ApprovalMode.YOLO, ApprovalDecision.allowOnce(), slow, edit);
        Cancellation cancel = new Cancellation();

        CompletableFuture<List<CompletedCall>> round = CompletableFuture.supplyAsync(
                () -> scheduler.runRound(List.of(call("1", "slow", "x"), call("2", "edit", "never")), cancel));
        assertTrue(slow.started.await(60, TimeUnit.SECONDS));
        cancel.cancel();
        List<CompletedCall> done = round.get(60, TimeUnit.SECONDS);

        assertEquals(List.of(ToolCallStatus.CANCELLED, ToolCallStatus.CANCELLED), statuses(done));
        assertEquals(List.of(), edit.runs);
        assertEquals(
                "The user cancelled this call before it started.",
                done.get(1).result().llmContent());
    }

    // gemini-cli coreToolScheduler.test.ts: "should cancel all tools when cancelAll is called"
    @Test
    void aCancelWhileAskingCancelsTheRestWithoutAskingAgain() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        Cancellation cancel = new Cancellation();
        Approver cancelsAtPrompt = request -> {
            asked.add(request);
            cancel.cancel();
            return ApprovalDecision.deniedByUser("");
        };
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(edit)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                cancelsAtPrompt,
                ApprovalMode.DEFAULT,
                events);

        List<CompletedCall> done = scheduler.runRound(List.of(call("1", "edit", "a"), call("2", "edit", "b")), cancel);

        assertEquals(List.of(ToolCallStatus.CANCELLED, ToolCallStatus.CANCELLED), statuses(done));
        assertEquals(1, asked.size());
    }

    // gemini-cli coreToolScheduler.test.ts: "should cancel all tools in a batch when one is cancelled via
    // confirmation"
    @Test
    void cancellingAtTheFirstQuestionCancelsEveryCallOfTheTurn() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        Cancellation cancel = new Cancellation();

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.cancelTurn(), edit)
                .runRound(List.of(call("1", "edit", "a"), call("2", "edit", "b"), call("3", "edit", "c")), cancel);

        assertEquals(
                List.of(
                        "The user cancelled this call at its approval question, and the rest of the turn with it; it"
                                + " did not run.",
                        "The user cancelled this call before it started.",
                        "The user cancelled this call before it started."),
                done.stream().map(completed -> completed.result().llmContent()).toList());
        assertEquals(
                List.of(ToolCallStatus.CANCELLED, ToolCallStatus.CANCELLED, ToolCallStatus.CANCELLED), statuses(done));
        assertEquals(1, asked.size());
        assertEquals(List.of(), edit.runs);
        assertTrue(cancel.isCancelled());
    }

    // gemini-cli coreToolScheduler.test.ts: "should auto-approve a tool call if it is on the allowedTools list"
    @Test
    void aToolTheUserAllowedRunsWithoutAQuestionInEveryModeButPlan() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EXECUTE);
        ApprovalRules rules = new ApprovalRules(
                dev.dockhand.core.tool.ProtectedPaths.defaults(), java.util.Map.of(), java.util.Set.of("edit"));
        List<ToolCallStatus> statuses = new ArrayList<>();
        for (ApprovalMode mode : ApprovalMode.values()) {
            CoreToolScheduler scheduler = new CoreToolScheduler(
                    new ToolRegistry(List.of(edit)),
                    TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                    request -> {
                        asked.add(request);
                        return ApprovalDecision.deniedByUser("");
                    },
                    mode,
                    rules,
                    events);
            statuses.add(scheduler
                    .runRound(List.of(call(mode.cliName(), "edit", mode.cliName())), new Cancellation())
                    .get(0)
                    .status());
        }

        assertEquals(
                List.of(ToolCallStatus.ERROR, ToolCallStatus.SUCCESS, ToolCallStatus.SUCCESS, ToolCallStatus.SUCCESS),
                statuses);
        assertEquals(List.of(), asked);
        assertEquals(List.of("default", "auto-edit", "yolo"), edit.runs);
    }

    @Test
    void aCallOfAToolTheUserExcludedIsAnsweredThatTheyDid() {
        TestTools.Echo read = new TestTools.Echo("read", ToolKind.READ);
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(read), java.util.Map.of("edit", "the user excluded it (--excluded-tools)")),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.YOLO,
                events);

        List<CompletedCall> done = scheduler.runRound(List.of(call("x1", "edit", "a")), new Cancellation());

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        "The edit call was not run: the user excluded it (--excluded-tools), so it is not available in"
                                + " this session. Do without it; the tools you have are: read."),
                done.get(0).result());
    }

    // gemini-cli coreToolScheduler.test.ts: "should mark tool call as cancelled when abort happens during
    // confirmation error"
    @Test
    void aQuestionThatFailsBecauseOfACancelEndsTheCallCancelled() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        Cancellation cancel = new Cancellation();
        CoreToolScheduler scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(edit)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> {
                    cancel.cancel();
                    throw new IllegalStateException("the terminal went away");
                },
                ApprovalMode.DEFAULT,
                events);

        List<CompletedCall> done = scheduler.runRound(List.of(call("1", "edit", "a")), cancel);

        assertEquals(
                List.of(ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled this call before it started.")),
                done.stream().map(CompletedCall::result).toList());
        assertEquals(List.of(), edit.runs);
    }

    // gemini-cli coreToolScheduler.test.ts: "should auto-approve remaining tool calls when first tool call is approved
    // with ProceedAlways"
    @Test
    void allowingAToolForTheSessionAtTheFirstCallLetsTheRestOfTheRoundRun() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);

        scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowForSession(), edit)
                .runRound(
                        List.of(call("1", "edit", "a"), call("2", "edit", "b"), call("3", "edit", "c")),
                        new Cancellation());

        assertEquals(1, asked.size());
        assertEquals(List.of("a", "b", "c"), edit.runs);
    }

    // gemini-cli coreToolScheduler.test.ts: "should cancel a tool call if the signal is aborted before confirmation"
    @Test
    void aRoundCancelledBeforeItStartsAsksNothingAndRunsNothing() {
        TestTools.Echo edit = new TestTools.Echo("edit", ToolKind.EDIT);
        Cancellation cancel = new Cancellation();
        cancel.cancel();

        List<CompletedCall> done = scheduler(ApprovalMode.DEFAULT, ApprovalDecision.allowOnce(), edit)
                .runRound(List.of(call("1", "edit", "a")), cancel);

        assertEquals(List.of(ToolCallStatus.CANCELLED), statuses(done));
        assertEquals(List.of(), asked);
        assertEquals(List.of(), edit.runs);
    }

    // codex tools.rs: "custom_tool_unknown_returns_custom_output_error"
    @Test
    void aCallOfAnUnknownToolIsAnsweredWithTheToolsThereAre() {
        TestTools.Echo read = new TestTools.Echo("read", ToolKind.READ);

        List<CompletedCall> done = scheduler(ApprovalMode.YOLO, ApprovalDecision.allowOnce(), read)
                .runRound(List.of(call("u1", "unsupported_tool", "x")), new Cancellation());

        assertEquals(
                ToolResult.error(ToolErrorType.UNKNOWN_TOOL, "Unknown tool 'unsupported_tool'. Available tools: read."),
                done.get(0).result());
    }
}
