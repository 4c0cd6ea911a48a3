package dev.dockhand.core.agent;

import dev.dockhand.core.model.TokenUsage;

/** How a turn ended, the final answer text (empty unless answered), and what it cost. */
public record TurnResult(Outcome outcome, String answer, int requests, TokenUsage usage) {

    /** Why the turn ended. */
    public enum Outcome {
        /** The model replied with text and without tool calls. */
        ANSWERED,
        /**
         * The model's last reply had neither text (or only blanks) nor tool calls: the turn ended with no answer, which
         * the caller must say rather than end in silence.
         */
        EMPTY_REPLY,
        /** The model still wanted tools after the last request the turn limit allows. */
        TURN_LIMIT,
        /** The user cancelled; the history is still valid. */
        CANCELLED,
        /** The model repeated itself (see {@code LoopGuard}) and the turn was stopped. */
        LOOP_DETECTED,
        /**
         * The caller's spending limit ({@link AgentLoop#setBudget}) was reached after a reply that wanted tools; its
         * calls were answered unrun, so the history stays valid, and no further request was sent.
         */
        BUDGET_SPENT,
        /**
         * A UserPromptSubmit hook refused the prompt: it was not added to the conversation and no request was sent; the
         * hook's reason was reported as a warning.
         */
        PROMPT_BLOCKED
    }
}
