package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;

/**
 * Stops grep's Java regular expression when the call is cancelled or has run too long. java.util.regex backtracks: a
 * pattern such as {@code a*a*a*a*a*a*a*a*a*a*b} against a line of {@code a}s takes hours, and it looks at no
 * interrupt or cancellation while it runs, so a call abandoned after Ctrl-C kept a core busy for the rest of the
 * session. The engine reads its text one character at a time through {@link CharSequence#charAt}; the text it is given
 * here ({@link #text}) counts those reads and, every {@value #READS_PER_LOOK} of them, looks at the call's cancellation
 * and deadline, and throws {@link Stopped}, which grep turns into an error result.
 */
final class RegexGuard {
    /** How long one grep call may search: far beyond the Java search of a large repository (about 1.5 s). */
    static final Duration DEADLINE = Duration.ofMinutes(1);

    /** Reads between two looks: a few microseconds of matching. */
    static final int READS_PER_LOOK = 4096;

    private final Cancellation cancellation;
    private final Duration limit;
    private final long deadline;
    private int readsLeft = READS_PER_LOOK;

    /** A guard for one call, from now until {@code limit} has passed. */
    RegexGuard(Cancellation cancellation, Duration limit) {
        this.cancellation = cancellation;
        this.limit = limit;
        this.deadline = System.nanoTime() + limit.toNanos();
    }

    /** {@code text} for the matcher to read, each read counted. */
    CharSequence text(String text) {
        return new Guarded(text);
    }

    private void look() {
        readsLeft = READS_PER_LOOK;
        if (cancellation.isCancelled()) {
            throw new Stopped(ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled the search."));
        }
        if (System.nanoTime() - deadline > 0) {
            throw new Stopped(ToolResult.error(
                    ToolErrorType.INVALID_PARAMS,
                    "The search was stopped after " + shown(limit) + ": the pattern took too long; simplify it"
                            + " (nested or adjacent repeats such as (a+)+ or a*a*b backtrack), or narrow the path or"
                            + " glob."));
        }
    }

    private static String shown(Duration limit) {
        return limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
    }

    /** The search was stopped; {@link #result} says why, to the model. */
    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final transient ToolResult result;

        Stopped(ToolResult result) {
            super(result.llmContent(), null, false, false);
            this.result = result;
        }

        ToolResult result() {
            return result;
        }
    }

    /** A string whose characters, read one at a time, are counted. */
    private final class Guarded implements CharSequence {
        private final String text;

        Guarded(String text) {
            this.text = text;
        }

        @Override
        public char charAt(int index) {
            if (--readsLeft <= 0) {
                look();
            }
            return text.charAt(index);
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Guarded(text.substring(start, end));
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
