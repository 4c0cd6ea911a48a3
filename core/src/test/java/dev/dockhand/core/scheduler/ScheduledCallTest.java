package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ScheduledCallTest {
    private static final ToolResult RAW = ToolResult.success("GH_TOKEN=ghp_not_yet_redacted", "1 line");

    private final EventRecorder events = new EventRecorder();
    private final ToolCall call = new ToolCall("c1", "read_file", "{}");

    @Test
    void aRedactionThatFailsWithAnErrorWithholdsTheResultInsteadOfSendingItRaw() {
        ScheduledCall scheduled = new ScheduledCall(
                call,
                events,
                result -> {
                    throw new OutOfMemoryError("simulated: the redactor ran out of memory");
                },
                UnaryOperator.identity());

        scheduled.finish(RAW, Duration.ZERO);

        ToolResult withheld = ToolResult.error(
                ToolErrorType.INTERNAL,
                "The call ran, but its output was withheld: it could not be checked for secrets, since looking it over"
                        + " failed inside Dockhand (OutOfMemoryError). This is a Dockhand bug; try another way.");
        assertEquals(withheld, scheduled.completed().orElseThrow().result());
        assertEquals(
                List.of(new AgentEvent.ToolCallFinished(call, ToolCallStatus.ERROR, withheld, "", Duration.ZERO)),
                events.ofType(AgentEvent.ToolCallFinished.class));
    }

    @Test
    void aNoteThatFailsLeavesTheRedactedResult() {
        ToolResult redacted = ToolResult.success("GH_TOKEN=[REDACTED:github-pat:1]", "1 line");
        ScheduledCall scheduled = new ScheduledCall(call, events, result -> redacted, result -> {
            throw new IllegalStateException("the note failed");
        });

        scheduled.finish(RAW, Duration.ZERO);

        assertEquals(redacted, scheduled.completed().orElseThrow().result());
    }

    @Test
    void theWithheldResultNamesWhatFailed() {
        assertEquals(
                "The call ran, but its output was withheld: it could not be checked for secrets, since looking it over"
                        + " failed inside Dockhand (StackOverflowError). This is a Dockhand bug; try another way.",
                Redactor.withheld(new StackOverflowError()).llmContent());
    }
}
