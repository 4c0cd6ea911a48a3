package dev.dockhand.core.scheduler;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.LoggerFactory;

/**
 * One call's life in a round, as an explicit state: it moves forward through {@link ToolCallStatus} and ends once,
 * with one result. A second {@link #finish} is ignored, so every path that might end a call (a result, a cancel, a
 * failure anywhere) can try to, and the first one counts.
 */
final class ScheduledCall {
    private final ToolCall call;
    private final AgentEventSink events;
    private final UnaryOperator<ToolResult> redaction;
    private final UnaryOperator<ToolResult> note;
    private PreparedCall<?> prepared;
    private String approvedProtected;
    /** The prepared call with the values of its placeholders, as approved: what runs. */
    private PreparedCall<?> runs;

    private String hookNote;
    private CompletedCall completed;

    /**
     * @param redaction what the result becomes before anyone sees it: its secrets replaced. It fails closed: if it
     *     throws, the result is withheld ({@link Redactor#withheld}), never sent as it was
     * @param note what is added on top of the redacted result (the repeated-failure warning); if it throws, the
     *     redacted result goes out without it
     */
    ScheduledCall(
            ToolCall call, AgentEventSink events, UnaryOperator<ToolResult> redaction, UnaryOperator<ToolResult> note) {
        this.call = call;
        this.events = events;
        this.redaction = redaction;
        this.note = note;
    }

    ToolCall call() {
        return call;
    }

    /** The call once its arguments passed validation; null before. */
    PreparedCall<?> prepared() {
        return prepared;
    }

    void prepared(PreparedCall<?> valid) {
        this.prepared = valid;
    }

    /** The call as it runs, with its placeholders' values; the prepared call itself until it is approved. */
    PreparedCall<?> runs() {
        return runs == null ? prepared : runs;
    }

    void runs(PreparedCall<?> expanded) {
        this.runs = expanded;
    }

    /** The protected entry the user's explicit yes let this call write; null when there is none. */
    String approvedProtected() {
        return approvedProtected;
    }

    void approvedProtected(String entry) {
        this.approvedProtected = entry;
    }

    /** What the PreToolUse hooks add to the result if the call runs; null when nothing. */
    String hookNote() {
        return hookNote;
    }

    void hookNote(String note) {
        this.hookNote = note;
    }

    synchronized boolean isDone() {
        return completed != null;
    }

    /** Moves to a non-terminal status; nothing happens once the call is done. */
    void advance(ToolCallStatus status) {
        if (isDone()) {
            return;
        }
        events.accept(new AgentEvent.ToolCallUpdated(running(), status, summary()));
    }

    /** Ends the call with {@code result}, unless it has ended already. */
    void finish(ToolResult given, Duration duration) {
        CompletedCall done;
        synchronized (this) {
            if (completed != null) {
                return;
            }
            ToolResult result;
            try {
                result = redaction.apply(given);
            } catch (Throwable e) {
                LoggerFactory.getLogger(ScheduledCall.class).error("redacting the result of {} failed", call.id(), e);
                result = Redactor.withheld(e);
            }
            try {
                result = note.apply(result);
            } catch (RuntimeException | Error e) {
                // Only a note on top of the result: the result itself must still go out.
            }
            ToolCallStatus status = result.error()
                    .map(type -> type == ToolErrorType.CANCELLED ? ToolCallStatus.CANCELLED : ToolCallStatus.ERROR)
                    .orElse(ToolCallStatus.SUCCESS);
            done = new CompletedCall(running(), status, result, summary(), duration);
            completed = done;
        }
        events.accept(
                new AgentEvent.ToolCallFinished(done.call(), done.status(), done.result(), done.summary(), duration));
    }

    Optional<CompletedCall> completed() {
        synchronized (this) {
            return Optional.ofNullable(completed);
        }
    }

    /**
     * The call as it runs: with the arguments a PreToolUse hook gave it, once it has, so that what the user sees and the
     * run report list is what ran. Its id and name are the model's.
     */
    private ToolCall running() {
        PreparedCall<?> valid = prepared;
        return valid == null ? call : valid.call();
    }

    private String summary() {
        return prepared == null ? "" : prepared.summary();
    }
}
