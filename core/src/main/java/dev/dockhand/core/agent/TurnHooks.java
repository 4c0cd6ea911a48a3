package dev.dockhand.core.agent;

import dev.dockhand.core.Cancellation;
import java.util.Objects;
import java.util.Optional;

/**
 * What the agent loop asks at the edges of a turn: {@link #promptSubmitted} before the prompt joins the conversation,
 * {@link #stopping} when the model ends the turn. The user's hooks ({@code dev.dockhand.core.hooks.Hooks})
 * implement it; {@link #NONE} changes nothing.
 */
public interface TurnHooks {
    TurnHooks NONE = new TurnHooks() {};

    /** The text of the user message to add (the prompt, perhaps with context after it), or why the prompt is refused. */
    default Prompt promptSubmitted(String prompt, Cancellation cancel) {
        return new Prompt.Accepted(prompt);
    }

    /**
     * The model answered without tool calls: a message that sends it back to work, or empty to end the turn.
     * {@code continued} says how many times this turn was already sent back.
     */
    default Optional<String> stopping(String answer, int continued, Cancellation cancel) {
        return Optional.empty();
    }

    /** The answer before a prompt. */
    sealed interface Prompt {
        /** The prompt goes on as {@code text}. */
        record Accepted(String text) implements Prompt {
            public Accepted {
                Objects.requireNonNull(text, "text");
            }
        }

        /** The prompt is not sent; the turn ends {@link TurnResult.Outcome#PROMPT_BLOCKED}. */
        record Blocked(String reason) implements Prompt {
            public Blocked {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }
}
