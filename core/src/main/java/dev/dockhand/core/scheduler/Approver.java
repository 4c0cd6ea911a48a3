package dev.dockhand.core.scheduler;

/**
 * Asks the user about one call. The CLI implements it: a prompt in the REPL, a refusal in single-shot runs where
 * nobody can answer. Called on the scheduler's thread, one call at a time, in the model's order.
 */
@FunctionalInterface
public interface Approver {
    ApprovalDecision decide(ApprovalRequest request);
}
