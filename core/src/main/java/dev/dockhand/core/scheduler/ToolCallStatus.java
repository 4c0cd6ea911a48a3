package dev.dockhand.core.scheduler;

/**
 * Where a call is in its life: VALIDATING → (AWAITING_APPROVAL) → SCHEDULED → EXECUTING → SUCCESS | ERROR |
 * CANCELLED. A call rejected by validation or approval goes straight to ERROR.
 */
public enum ToolCallStatus {
    /** Arguments being parsed and checked against the schema. */
    VALIDATING,
    /** Waiting for the user's answer. */
    AWAITING_APPROVAL,
    /** Approved, waiting for its turn to run. */
    SCHEDULED,
    /** Running. */
    EXECUTING,
    /** Ran and succeeded. */
    SUCCESS,
    /** Rejected, refused, or ran and failed. */
    ERROR,
    /** Stopped by the user before it finished, or never started because of a cancel. */
    CANCELLED;

    public boolean isTerminal() {
        return this == SUCCESS || this == ERROR || this == CANCELLED;
    }
}
