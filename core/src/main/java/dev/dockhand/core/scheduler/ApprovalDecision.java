package dev.dockhand.core.scheduler;

import java.util.Objects;
import java.util.Optional;

/**
 * The user's answer about one call. A denial carries the clause the model reads after "The … call was not run:".
 */
public record ApprovalDecision(Outcome outcome, Optional<String> denial) {

    /** What the user chose. */
    public enum Outcome {
        /** Run this call. */
        ALLOW_ONCE,
        /** Run this call and every later call of the same tool in this session without asking. */
        ALLOW_FOR_SESSION,
        /**
         * Run this call and every later call of any tool of its group ({@code Tool.approvalGroup}: the same MCP
         * server) in this session without asking; for a tool without a group, as {@link #ALLOW_FOR_SESSION}.
         */
        ALLOW_GROUP_FOR_SESSION,
        /** Do not run this call; the model is told why. */
        DENY,
        /**
         * Do not run this call nor any other of the turn: the user stopped at the question (Esc, Ctrl-C), and gets the
         * prompt back. This call and every one not yet run end cancelled.
         */
        CANCEL_TURN
    }

    public ApprovalDecision {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(denial, "denial");
    }

    public static ApprovalDecision allowOnce() {
        return new ApprovalDecision(Outcome.ALLOW_ONCE, Optional.empty());
    }

    public static ApprovalDecision allowForSession() {
        return new ApprovalDecision(Outcome.ALLOW_FOR_SESSION, Optional.empty());
    }

    public static ApprovalDecision allowGroupForSession() {
        return new ApprovalDecision(Outcome.ALLOW_GROUP_FOR_SESSION, Optional.empty());
    }

    /** The user stopped the whole turn at the question. */
    public static ApprovalDecision cancelTurn() {
        return new ApprovalDecision(Outcome.CANCEL_TURN, Optional.empty());
    }

    /** The user said no, optionally with a reason meant for the model. */
    public static ApprovalDecision deniedByUser(String reason) {
        String clause = reason == null || reason.isBlank()
                ? "the user denied it."
                : "the user denied it and said: " + reason.strip();
        return new ApprovalDecision(Outcome.DENY, Optional.of(clause));
    }

    /** Refused without a user decision; {@code clause} explains why to the model. */
    public static ApprovalDecision refused(String clause) {
        return new ApprovalDecision(Outcome.DENY, Optional.of(clause));
    }
}
