package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeoutsTest {
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
