package dev.dockhand.core.model;

import java.time.Duration;

/**
 * How often and how patiently a failed request is tried again: up to {@code maxAttempts} attempts in all, waiting
 * {@code baseDelay}, then twice that, and so on up to {@code maxDelay}, each wait shortened by a random part of up
 * to half so that many clients do not retry in step. A Retry-After from the provider is honoured instead, when it
 * is no longer than {@code maxRetryAfter}.
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay, Duration maxRetryAfter) {
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(4, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofMinutes(2));

    /** {@code maxAttempts} attempts, waiting from {@code baseDelay} up to thirty times that, Retry-After as the default. */
    public static RetryPolicy of(int maxAttempts, Duration baseDelay) {
        return new RetryPolicy(maxAttempts, baseDelay, baseDelay.multipliedBy(30), DEFAULT.maxRetryAfter);
    }

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
    }

    /** The wait before attempt {@code attempt + 1}, with {@code random} in [0, 1) for the jitter. */
    Duration delay(int attempt, double random) {
        long base = baseDelay.toMillis() << Math.min(attempt - 1, 20);
        long capped = Math.min(base, maxDelay.toMillis());
        return Duration.ofMillis((long) (capped * (1.0 - random / 2)));
    }
}
