package dev.dockhand.cli;

import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalRequest;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.tool.ToolKind;
import java.io.PrintWriter;

/**
 * The approver of single-shot runs, where nobody can answer a prompt: every call that would ask is refused, the
 * model is told how the user could allow it, and stderr says so too.
 */
final class NonInteractiveApprover implements Approver {
    private final PrintWriter err;
    private int refused;

    NonInteractiveApprover(PrintWriter err) {
        this.err = err;
    }

    @Override
    public synchronized ApprovalDecision decide(ApprovalRequest request) {
        refused++;
        String allow = request.kind() == ToolKind.EDIT ? "--approval-mode auto-edit or --yolo" : "--yolo";
        err.println("dockhand: refused " + request.call().name() + " " + Rendering.shorten(request.summary())
                + ": it needs approval; rerun with " + allow + " to allow it.");
        err.flush();
        return ApprovalDecision.refused("it needs the user's approval, and nobody can approve in this"
                + " non-interactive run. The user can allow such calls by rerunning with " + allow + ". Finish what"
                + " you can without it and say what was not done.");
    }

    synchronized int refused() {
        return refused;
    }
}
