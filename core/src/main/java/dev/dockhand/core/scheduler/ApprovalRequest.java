package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolKind;
import java.util.Optional;

/**
 * What the user is asked to approve: the call, its kind, its key argument in a few words, a preview of what it would
 * change (a unified diff for edits) when the tool can tell, and, when the question is asked although the approval
 * mode would let the call run, why. Such a question is answered for this call only, never for the session. A
 * sub-agent's question names the agent asking.
 */
public record ApprovalRequest(
        ToolCall call,
        ToolKind kind,
        String summary,
        Optional<String> preview,
        Optional<Explicit> explicit,
        Optional<String> agent) {

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
        this(call, kind, summary, preview, explicit, Optional.empty());
    }

    /** The same question, asked for the sub-agent {@code agent} (its id and task, in a few words). */
    public ApprovalRequest askedBy(String agent) {
        return new ApprovalRequest(call, kind, summary, preview, explicit, Optional.of(agent));
    }
}
