package dev.dockhand.core.scheduler;

import dev.dockhand.core.tool.ToolKind;

/**
 * Decides, with no side effects, whether a call runs, asks, or is refused. The whole policy is this table:
 *
 * <pre>
 *              READ   EDIT   EXECUTE  FETCH
 *  plan        allow  deny   deny     deny
 *  default     allow  ask    ask      ask
 *  auto-edit   allow  allow  ask      ask
 *  yolo        allow  allow  allow    allow
 * </pre>
 *
 * A tool the user allowed "for this session" turns an ask into an allow, never a deny: plan mode stays read-only. A
 * call that needs an explicit yes (it writes a protected path, or its kind is one the run's {@link ApprovalRules}
 * keep out of yolo) asks in every mode but plan, where it is refused like any other change, and no session approval
 * answers for it.
 */
public final class ApprovalPolicy {

    /** The policy's answer for one call. */
    public enum Verdict {
        /** Run without asking. */
        ALLOW,
        /** Ask the {@link Approver}. */
        ASK,
        /** Refuse without asking. */
        DENY
    }

    /** Whether a call needs the user's own yes, whatever the mode allows. */
    public enum Explicit {
        /** The mode and the session's approvals decide. */
        NO,
        /** Only the user's answer to this very call lets it run. */
        REQUIRED
    }

    private ApprovalPolicy() {}

    public static Verdict decide(ToolKind kind, ApprovalMode mode, boolean allowedForSession) {
        return decide(kind, mode, allowedForSession, Explicit.NO);
    }

    public static Verdict decide(ToolKind kind, ApprovalMode mode, boolean allowedForSession, Explicit explicit) {
        Verdict verdict = table(kind, mode);
        if (explicit == Explicit.REQUIRED) {
            return mode == ApprovalMode.PLAN && kind != ToolKind.READ ? Verdict.DENY : Verdict.ASK;
        }
        return verdict == Verdict.ASK && allowedForSession ? Verdict.ALLOW : verdict;
    }

    private static Verdict table(ToolKind kind, ApprovalMode mode) {
        if (kind == ToolKind.READ) {
            return Verdict.ALLOW;
        }
        return switch (mode) {
            case PLAN -> Verdict.DENY;
            case DEFAULT -> Verdict.ASK;
            case AUTO_EDIT -> kind == ToolKind.EDIT ? Verdict.ALLOW : Verdict.ASK;
            case YOLO -> Verdict.ALLOW;
        };
    }
}
