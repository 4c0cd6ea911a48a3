package dev.dockhand.core.scheduler;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolResult;
import java.util.Objects;
import java.util.Optional;

/**
 * What the scheduler asks around each call: {@link #beforeCall} once its arguments are valid and before its approval,
 * {@link #afterCall} once it ran. The user's hooks ({@code dev.dockhand.core.hooks.Hooks}) implement it; {@link
 * #NONE} changes nothing. Whatever these answer, the call still gets exactly one result.
 */
public interface CallHooks {
    CallHooks NONE = new CallHooks() {};

    /** Whether the call goes on (perhaps with other arguments, which are validated again) or is blocked. */
    default Before beforeCall(ToolCall call, ApprovalMode mode, Cancellation cancel) {
        return Before.GO_ON;
    }

    /** A note to add to the result the model reads, or empty. Not asked for calls that were cancelled. */
    default Optional<String> afterCall(ToolCall call, ToolResult result, ApprovalMode mode, Cancellation cancel) {
        return Optional.empty();
    }

    /** The answer before a call. */
    sealed interface Before {
        Before GO_ON = new GoOn(Optional.empty(), Optional.empty());

        /**
         * The call goes on to its approval: with {@code arguments} (a JSON object's text) instead of the model's when
         * present, and {@code note} added to its result if it runs.
         */
        record GoOn(Optional<String> arguments, Optional<String> note) implements Before {
            public GoOn {
                Objects.requireNonNull(arguments, "arguments");
                Objects.requireNonNull(note, "note");
            }
        }

        /** The call does not run; {@code reason} goes to the model. */
        record Blocked(String reason) implements Before {
            public Blocked {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }
}
