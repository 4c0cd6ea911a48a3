package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolKind;
import java.util.Optional;

/**
 * What the user is asked to approve: the call, its kind, its key argument in a few words, a preview of what it would
 * change (a unified diff for edits) when the tool can tell, and, when the question is asked although the approval
 * mode would let the call run, why. Such a question is answered for this call only, never for the session. A
 * sub-agent's question names the agent asking.
 *
 * <p>{@code call} and {@code summary} are as the model wrote them, redaction placeholders included: fit for a log, a
 * CI's output or a saved rule. {@code shown} is the call as the question on the user's terminal shows it, when that
 * differs: the placeholders whose values could change what it does put back ({@link
 * dev.dockhand.core.redaction.Redactor#shown}); the preview is already in that form.
 */
public record ApprovalRequest(
        ToolCall call,
        ToolKind kind,
        String summary,
        Optional<String> preview,
        Optional<Explicit> explicit,
        Optional<String> agent,
        Optional<ToolCall> shown) {

    /**
     * Why only the user's yes to this very call lets it run: one sentence for the user and the model, and the
     * protected path it would change, when that is the reason.
     */
    public record Explicit(String reason, Optional<String> protectedEntry) {}

    public ApprovalRequest(ToolCall call, ToolKind kind, String summary, Optional<String> preview) {
        this(call, kind, summary, preview, Optional.empty());
    }

    public ApprovalRequest(
            ToolCall call, ToolKind kind, String summary, Optional<String> preview, Optional<Explicit> explicit) {
        this(call, kind, summary, preview, explicit, Optional.empty(), Optional.empty());
    }

    /** The call as the user's question shows it: {@link #shown} when there is one, else the call. */
    public ToolCall asShown() {
        return shown.orElse(call);
    }

    /** The same question, shown to the user as {@code asShown} (when it differs from the call). */
    public ApprovalRequest showing(ToolCall asShown) {
        return new ApprovalRequest(
                call,
                kind,
                summary,
                preview,
                explicit,
                agent,
                asShown.equals(call) ? Optional.empty() : Optional.of(asShown));
    }

    /** The same question, asked for the sub-agent {@code agent} (its id and task, in a few words). */
    public ApprovalRequest askedBy(String agent) {
        return new ApprovalRequest(call, kind, summary, preview, explicit, Optional.of(agent), shown);
    }
}
