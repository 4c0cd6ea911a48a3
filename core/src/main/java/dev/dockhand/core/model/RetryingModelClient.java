package dev.dockhand.core.model;

import dev.dockhand.core.Cancellation;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Retries a provider's transient failures (429, 500, 502, 503, 504, 529, connection failures and stalls) with
 * exponential backoff and jitter, but only while nothing of the reply has reached the user: a reply that failed
 * after text streamed is not silently replayed, the failure goes up. Each retry is announced to the listener first.
 */
public final class RetryingModelClient implements ModelClient {
    private final ModelClient delegate;
    private final RetryPolicy policy;
    private final Sleeper sleeper;

    /** Waits between attempts; returns false when the cancel came first. */
    @FunctionalInterface
    public interface Sleeper {
        boolean sleep(Duration delay, Cancellation cancel) throws InterruptedException;
    }

    public RetryingModelClient(ModelClient delegate, RetryPolicy policy) {
        this(delegate, policy, RetryingModelClient::sleepUnlessCancelled);
    }

    public RetryingModelClient(ModelClient delegate, RetryPolicy policy, Sleeper sleeper) {
        this.delegate = delegate;
        this.policy = policy;
        this.sleeper = sleeper;
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        for (int attempt = 1; ; attempt++) {
            boolean[] streamed = {false};
            StreamListener watching = new StreamListener() {
                @Override
                public void onTextDelta(String text) {
                    streamed[0] = true;
                    listener.onTextDelta(text);
                }

                @Override
                public void onReasoningDelta(String text) {
                    // Shown reasoning is as visible as text: an attempt that streamed it is not silently replayed.
                    streamed[0] = true;
                    listener.onReasoningDelta(text);
                }

                @Override
                public void onRetry(RetryNotice notice) {
                    listener.onRetry(notice);
                }

                @Override
                public void onWarning(String message) {
                    listener.onWarning(message);
                }
            };
            try {
                return delegate.stream(request, watching, cancel);
            } catch (ProviderException e) {
                Duration delay = retryDelay(e, attempt, streamed[0]);
                if (delay == null || cancel.isCancelled()) {
                    throw e;
                }
                listener.onRetry(new RetryNotice(attempt, policy.maxAttempts(), delay, e.getMessage()));
                if (!waitFor(delay, cancel)) {
                    return new ModelReply("", java.util.List.of(), FinishReason.CANCELLED, java.util.Optional.empty());
                }
            }
        }
    }

    /** The wait before the next attempt, or null when this failure is final. */
    private Duration retryDelay(ProviderException e, int attempt, boolean streamed) {
        if (streamed || attempt >= policy.maxAttempts() || !retryable(e)) {
            return null;
        }
        if (e.retryAfter().isPresent()) {
            Duration asked = e.retryAfter().get();
            return asked.compareTo(policy.maxRetryAfter()) <= 0 ? asked : null;
        }
        return policy.delay(attempt, ThreadLocalRandom.current().nextDouble());
    }

    static boolean retryable(ProviderException e) {
        return switch (e.kind()) {
            case RATE_LIMITED, NETWORK -> true;
            case SERVER -> switch (e.httpStatus()) {
                case 0, 500, 502, 503, 504, 529 -> true;
                default -> false;
            };
            case AUTHENTICATION, BAD_REQUEST, PROTOCOL -> false;
        };
    }

    private boolean waitFor(Duration delay, Cancellation cancel) throws ProviderException {
        try {
            return sleeper.sleep(delay, cancel);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean sleepUnlessCancelled(Duration delay, Cancellation cancel) throws InterruptedException {
        CountDownLatch cancelled = new CountDownLatch(1);
        try (Cancellation.Registration ignored = cancel.onCancel(cancelled::countDown)) {
            return !cancelled.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
