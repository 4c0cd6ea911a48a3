package dev.dockhand.sandbox;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The steps of the end of a session on the engine, in the order that keeps the host's files whole: the background
 * commands are stopped first, so that the last copy back does not take a build output one of them is half-way through
 * writing; then the copy back; then the container's removal. Each step is waited for as {@link Bounded} does, for as
 * long as the engine answers; the removal is not tried once the copy back was given up on.
 */
final class SessionEnd {
    /**
     * Whether the copy back, and the removal after it, finished, and the copy back's sentences for the user (what it
     * left in the sandbox and why); none when it was given up on.
     */
    record Outcome(boolean copied, boolean removed, List<String> notices) {}

    private SessionEnd() {}

    static Outcome run(
            Duration limit,
            BooleanSupplier engineAnswers,
            Runnable stopBackground,
            Supplier<List<String>> copyBack,
            Runnable remove) {
        AtomicReference<List<String>> notices = new AtomicReference<>(List.of());
        boolean copied = Bounded.run("dockhand-sandbox-copy-back", limit, engineAnswers, () -> {
            stopBackground.run();
            notices.set(List.copyOf(copyBack.get()));
        });
        boolean removed = copied && Bounded.run("dockhand-sandbox-remove", limit, engineAnswers, remove);
        return new Outcome(copied, removed, copied ? notices.get() : List.of());
    }
}
