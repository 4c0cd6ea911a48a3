package dev.dockhand.sandbox;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The steps of the end of a session on the engine, in the order that keeps the host's files whole: the background
 * commands are stopped first, so that the last copy back does not take a build output one of them is half-way through
 * writing; then the copy back; then the container's removal. Each step is waited for as {@link Bounded} does, for as
 * long as the engine answers; the removal is not tried once the copy back was given up on.
 */
final class SessionEnd {
    /** Whether the copy back, and the removal after it, finished. */
    record Outcome(boolean copied, boolean removed) {}

    private SessionEnd() {}

    static Outcome run(
            Duration limit,
            BooleanSupplier engineAnswers,
            Runnable stopBackground,
            Runnable copyBack,
            Runnable remove) {
        boolean copied = Bounded.run("dockhand-sandbox-copy-back", limit, engineAnswers, () -> {
            stopBackground.run();
            copyBack.run();
        });
        boolean removed = copied && Bounded.run("dockhand-sandbox-remove", limit, engineAnswers, remove);
        return new Outcome(copied, removed);
    }
}
