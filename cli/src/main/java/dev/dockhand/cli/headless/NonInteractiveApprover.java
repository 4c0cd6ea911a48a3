package dev.dockhand.cli.headless;

import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalRequest;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.tool.ToolKind;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * The approver of single-shot runs, where nobody can answer a prompt: every call that would ask is refused, the
 * model is told how the user could allow it, and stderr says so too. A call that needs an explicit yes (a protected
 * path, a fetch in an unattended yolo run) is refused with its reason: no flag approves it after the fact.
 */
public final class NonInteractiveApprover implements Approver {
    private final PrintWriter err;
    private int refused;
    private int explicitRefused;

    NonInteractiveApprover(PrintWriter err) {
        this.err = err;
    }

    @Override
    public synchronized ApprovalDecision decide(ApprovalRequest request) {
        refused++;
        // The model chose the summary, a project's rule the reason: shown, never obeyed.
        String what = request.call().name() + " " + Rendering.printable(Rendering.shorten(request.summary()));
        if (request.explicit().isPresent()) {
            explicitRefused++;
            ApprovalRequest.Explicit explicit = request.explicit().get();
            Optional<String> entry = explicit.protectedEntry();
            String allow = entry.map(path -> "The user can let the model change it with --allow-protected-path " + path
                            + " or by listing it under protectedPaths.allow in ~/.dockhand/settings.json.")
                    .orElse("");
            err.println("dockhand: refused " + what + ": "
                    + entry.map(path -> path + " is protected; allow it with --allow-protected-path " + path + ".")
                            .orElse(Rendering.printable(explicit.reason())));
            err.flush();
            return ApprovalDecision.refused(explicit.reason() + " Nobody can give that yes in this non-interactive run,"
                    + " and --yolo does not cover it. " + allow + (allow.isEmpty() ? "" : " ")
                    + "Do not try another way around it: finish what you can and tell the user what was not done.");
        }
        String allow = (request.kind() == ToolKind.EDIT ? "--approval-mode auto-edit, --yolo" : "--yolo")
                + " or --allowed-tools " + request.call().name();
        err.println("dockhand: refused " + what + ": it needs approval; rerun with " + allow + " to allow it.");
        err.flush();
        return ApprovalDecision.refused("it needs the user's approval, and nobody can approve in this"
                + " non-interactive run. The user can allow such calls by rerunning with " + allow + ". Finish what"
                + " you can without it and say what was not done.");
    }

    synchronized int refused() {
        return refused;
    }

    /** What the user can do about the refusals, for the run's last line. */
    synchronized String advice() {
        String calls = refused + (refused == 1 ? " tool call" : " tool calls");
        if (explicitRefused == refused) {
            return calls + " needed your explicit approval, which no flag gives after the fact (see the lines above).";
        }
        return calls + " needed approval and nobody could give it; rerun with --yolo (or --approval-mode auto-edit for"
                + " edits, or --allowed-tools with the tools' names) to allow such calls.";
    }
}
