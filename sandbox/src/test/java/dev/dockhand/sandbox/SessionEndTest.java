package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The end of a session stops the background commands before the last copy back, and removes the container last. */
class SessionEndTest {
    private final List<String> steps = new CopyOnWriteArrayList<>();

    @Test
    void theBackgroundCommandsStopBeforeTheLastCopyBackAndTheContainerGoesLast() {
        SessionEnd.Outcome outcome = SessionEnd.run(
                Duration.ofSeconds(15),
                () -> false,
                () -> steps.add("stop background commands"),
                () -> {
                    steps.add("copy back");
                    return List.of();
                },
                () -> steps.add("remove container"));

        assertEquals(new SessionEnd.Outcome(true, true, List.of()), outcome);
        assertEquals(List.of("stop background commands", "copy back", "remove container"), steps);
    }

    @Test
    void theLastCopyBacksSentencesComeBackForTheUser() {
        SessionEnd.Outcome outcome = SessionEnd.run(
                Duration.ofSeconds(15),
                () -> false,
                () -> {},
                () -> List.of("Left as it is on the user's machine: notes.txt (changed on both sides)."),
                () -> {});

        assertEquals(
                new SessionEnd.Outcome(
                        true, true, List.of("Left as it is on the user's machine: notes.txt (changed on both sides).")),
                outcome);
    }

    @Test
    void aCopyBackOnASilentEngineIsGivenUpOnAndNothingIsRemoved() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch pinged = new CountDownLatch(1);

        SessionEnd.Outcome outcome = SessionEnd.run(
                Duration.ofMillis(1),
                () -> {
                    pinged.countDown();
                    return false;
                },
                () -> steps.add("stop background commands"),
                () -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return List.of("never seen: the copy back was given up on");
                },
                () -> steps.add("remove container"));

        assertEquals(new SessionEnd.Outcome(false, false, List.of()), outcome);
        assertEquals(0, pinged.getCount());
        never.countDown();
    }

    @Test
    void aSlowCopyBackIsWaitedForWhileTheEngineAnswers() {
        CountDownLatch pings = new CountDownLatch(3);

        SessionEnd.Outcome outcome = SessionEnd.run(
                Duration.ofMillis(1),
                () -> {
                    pings.countDown();
                    return true;
                },
                () -> steps.add("stop background commands"),
                () -> {
                    try {
                        // Slow work: it finishes only once the engine was asked three times whether it lives.
                        pings.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    steps.add("copy back");
                    return List.of();
                },
                () -> steps.add("remove container"));

        assertEquals(new SessionEnd.Outcome(true, true, List.of()), outcome);
        assertEquals(List.of("stop background commands", "copy back", "remove container"), steps);
    }
}
