package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the protected paths are swept while something runs in the background, and what the next result says. */
class ProtectedSweeperTest {
    private static final ProtectedSweep.Outcome REMOVED =
            new ProtectedSweep.Outcome(List.of(".git/commondir"), List.of(), List.of());

    @Test
    void whatThePeriodicSweepsDidIsSaidOnceInTheNextResultAndOneSweepComesAfterTheLastBackgroundCommandEnded()
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger sweeps = new AtomicInteger();
        AtomicInteger afterTheEnd = new AtomicInteger();
        ProtectedSweeper sweeper = new ProtectedSweeper(
                () -> {
                    sweeps.incrementAndGet();
                    if (!running.get()) {
                        afterTheEnd.incrementAndGet();
                    }
                    return REMOVED;
                },
                running::get,
                Duration.ofMillis(10));

        sweeper.watch();
        SandboxContractTest.await("three periodic sweeps", () -> sweeps.get() >= 3);
        running.set(false);
        SandboxContractTest.await("a sweep after the end", () -> afterTheEnd.get() >= 1);
        sweeper.stop();
        List<String> first = sweeper.sweep("the command");
        List<String> second = sweeper.sweep("the command");

        String byTheCommand = "Removed .git/commondir, which the command created: git would take its config and hooks"
                + " from there on the user's machine. Do not work around it; tell the user.";
        assertEquals(
                List.of(
                        "Removed .git/commondir, which a command or program running in the background in the sandbox"
                                + " created: git would take its config and hooks from there on the user's machine. Do"
                                + " not work around it; tell the user.",
                        byTheCommand),
                first);
        assertEquals(List.of(byTheCommand), second);
    }
}
