package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedTest {
    @Test
    void workThatNeverEndsIsGivenUpOnAtTheMostEvenWhileTheEngineAnswers() {
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger pings = new AtomicInteger();

        boolean finished = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> Bounded.run(
                        "stuck-removal",
                        Duration.ofMillis(1),
                        Duration.ofMillis(50),
                        () -> {
                            pings.incrementAndGet();
                            return true;
                        },
                        () -> {
                            try {
                                never.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }));

        assertEquals(false, finished);
        assertEquals(true, pings.get() >= 1, "the engine was asked at least once before giving up");
        never.countDown();
    }

    @Test
    void workThatEndsIsWaitedForWhileTheEngineAnswers() {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger pings = new AtomicInteger();

        boolean finished = assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> Bounded.run(
                        "slow-copy",
                        Duration.ofMillis(1),
                        Duration.ofMinutes(5),
                        () -> {
                            // The work is let go only once the engine was asked twice: slow, not stuck.
                            if (pings.incrementAndGet() == 2) {
                                release.countDown();
                            }
                            return true;
                        },
                        () -> {
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }));

        assertEquals(true, finished);
    }
}
