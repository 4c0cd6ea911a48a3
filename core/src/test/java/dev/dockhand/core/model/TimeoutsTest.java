package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeoutsTest {
    @Test
    void timesAgreesWithMultipliedByIncludingNanosecondCarries() {
        List<Duration> durations = List.of(
                Duration.ZERO,
                Duration.ofMillis(10),
                Duration.ofSeconds(1),
                Duration.ofSeconds(7, 999_999_999),
                Duration.ofHours(3).plusNanos(123_456_789),
                Duration.ofMillis(-1500));
        for (Duration duration : durations) {
            for (long factor : new long[] {0, 1, 4, 30, -2}) {
                assertEquals(
                        duration.multipliedBy(factor), Timeouts.times(duration, factor), duration + " x " + factor);
            }
        }
    }

    @Test
    void timesFailsOnOverflowAsMultipliedByDoes() {
        Duration huge = Duration.ofSeconds(Long.MAX_VALUE / 10);
        assertThrows(ArithmeticException.class, () -> huge.multipliedBy(30));
        assertThrows(ArithmeticException.class, () -> Timeouts.times(huge, 30));
    }

    @Test
    void writeTimeoutIsFourTimesTheConnectTimeout() {
        Timeouts timeouts = new Timeouts(Duration.ofMillis(2500), Duration.ofMinutes(5), Duration.ofMinutes(2));

        assertEquals(Duration.ofSeconds(10), timeouts.write());
    }

    @Test
    void retryPolicyOfWaitsUpToThirtyTimesTheBaseDelay() {
        assertEquals(
                new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(15), Duration.ofMinutes(2)),
                RetryPolicy.of(3, Duration.ofMillis(500)));
    }
}
