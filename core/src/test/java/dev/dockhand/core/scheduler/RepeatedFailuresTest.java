package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** From the third time in a row, a call that keeps failing the same way tells the model to change approach. */
class RepeatedFailuresTest {
    private static final String FAILED = "No such file: missing.txt.";
    private static final String WARNING = "\n\nYou have made this same call (open with the same arguments) 3 times in"
            + " a row, and it failed each time. You are repeating a failing call: it will fail again. Change your"
            + " approach: read the error, then use other arguments or another tool, or ask the user.";

    @TempDir
    Path workspace;

    private final EventRecorder events = new EventRecorder();

    /** Fails for names that start with "missing", succeeds for anything else. */
    private final TestTools.Base open = new TestTools.Base("open", ToolKind.READ) {
        @Override
        public ToolResult execute(Params params, ToolContext context) {
            return params.text().startsWith("missing")
                    ? ToolResult.error(ToolErrorType.FILE_NOT_FOUND, FAILED)
                    : ToolResult.success("opened", "opened");
        }
    };

    private CoreToolScheduler scheduler;

    @BeforeEach
    void scheduler() {
        scheduler = new CoreToolScheduler(
                new ToolRegistry(List.of(open)),
                TestEnvironments.environment(workspace, TestEnvironments.NO_COMMANDS),
                request -> ApprovalDecision.allowOnce(),
                ApprovalMode.DEFAULT,
                events);
    }

    private String round(String... files) {
        List<ToolCall> calls = new java.util.ArrayList<>();
        for (String file : files) {
            // Spacing and key order differ from call to call: the arguments are compared as JSON.
            calls.add(new ToolCall("c" + calls.size(), "open", "{ \"text\" : \"" + file + "\" }"));
        }
        List<CompletedCall> done = scheduler.runRound(calls, new Cancellation());
        return done.get(0).result().llmContent();
    }

    // Issue 34: qwen-code tells the model at the third identical failing call that it is repeating itself.
    @Test
    void theThirdIdenticalFailingCallInARowCarriesTheWarning() {
        assertEquals(FAILED, round("missing.txt"));
        assertEquals(FAILED, round("missing.txt"));
        assertEquals(FAILED + WARNING, round("missing.txt"));

        AgentEvent.ToolCallFinished last =
                events.ofType(AgentEvent.ToolCallFinished.class).get(2);
        assertEquals(
                new ToolResult(FAILED + WARNING, FAILED, java.util.Optional.of(ToolErrorType.FILE_NOT_FOUND)),
                last.result());
    }

    @Test
    void identicalCallsInOneReplyCountOnce() {
        round("missing.txt", "missing.txt", "missing.txt");
        assertEquals(FAILED, round("missing.txt", "missing.txt"));
    }

    @Test
    void aSuccessOrAnotherCallInBetweenStartsTheCountAgain() {
        round("missing.txt");
        round("missing.txt");
        round("present.txt");
        assertEquals(FAILED, round("missing.txt"));
        assertEquals(FAILED, round("missing.txt"));
        assertEquals(FAILED + WARNING, round("missing.txt"));
    }

    @Test
    void aNewPromptStartsTheCountAgain() {
        round("missing.txt");
        round("missing.txt");
        scheduler.newTurn();
        assertEquals(FAILED, round("missing.txt"));
    }

    // qwen-code coreToolScheduler.test.ts: "preserves the last repeated error count across mixed-error batches"
    @Test
    void aCallCountsOnAcrossARoundThatAlsoHadOtherFailures() {
        round("missing.txt", "missing-too.txt", "missing.txt");
        assertEquals(FAILED, round("missing.txt"));
        assertEquals(FAILED + WARNING, round("missing.txt"));
    }

    // qwen-code coreToolScheduler.test.ts: "should isolate retry counters per-tool across batches"
    @Test
    void anotherFailingCallInBetweenStartsTheCountAgain() {
        round("missing.txt");
        round("missing.txt");
        round("missing-too.txt");
        assertEquals(FAILED, round("missing.txt"));
    }
}
