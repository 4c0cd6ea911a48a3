package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells the model, from the third time on, that it is repeating a call that keeps failing: the same tool with the
 * same arguments (compared as JSON values), failed in each of the last rounds. The warning rides on the error result
 * itself; the turn goes on, and {@code LoopGuard} still stops it at the fifth identical call. Identical calls within
 * one reply count once, as they do for the loop guard: models send them side by side, which is not a repeat. A call
 * the user cancelled is no failure of the model's.
 */
final class RepeatedFailures {
    static final int WARN_AT = 3;

    /** Each call that failed in the last round, with how many rounds in a row it has failed. */
    private Map<List<Object>, Integer> streaks = Map.of();

    private final Map<List<Object>, Integer> thisRound = new HashMap<>();

    /** The result to give the model for {@code call}: {@code result}, with the warning when the streak reaches it. */
    synchronized ToolResult check(ToolCall call, ToolResult result) {
        if (!result.isError() || result.error().get() == ToolErrorType.CANCELLED) {
            return result;
        }
        List<Object> key = List.of(call.name(), call.comparableArguments());
        int times = thisRound.computeIfAbsent(key, k -> streaks.getOrDefault(k, 0) + 1);
        if (times < WARN_AT) {
            return result;
        }
        return result.withText(
                result.llmContent() + "\n\nYou have made this same call (" + call.name() + " with the same arguments) "
                        + times + " times in a row, and it failed each time. You are repeating a failing call: it"
                        + " will fail again. Change your approach: read the error, then use other arguments or"
                        + " another tool, or ask the user.",
                result.display(),
                result.error());
    }

    /** A round ended: only the calls that failed in it carry their streak on. */
    synchronized void endRound() {
        streaks = Map.copyOf(thisRound);
        thisRound.clear();
    }

    /** A new prompt: the user has had their say, so streaks start again, as the loop guard's do. */
    synchronized void reset() {
        streaks = Map.of();
        thisRound.clear();
    }
}
