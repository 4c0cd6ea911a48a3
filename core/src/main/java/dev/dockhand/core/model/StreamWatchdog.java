package dev.dockhand.core.model;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Ends a stream that stalls: no first byte within the first-byte time-out, or no event within the idle time-out
 * after one. Each event re-arms it; when it fires it records which time-out it was and runs the stop action.
 */
final class StreamWatchdog implements AutoCloseable {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-stream-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    private final Timeouts timeouts;
    private final Runnable stop;
    private ScheduledFuture<?> pending;
    private boolean started;
    private volatile String stalled;

    StreamWatchdog(Timeouts timeouts, Runnable stop) {
        this.timeouts = timeouts;
        this.stop = stop;
        arm(timeouts.firstByte(), "first-byte");
    }

    /** An event arrived: the idle clock starts over. */
    synchronized void event() {
        started = true;
        pending.cancel(false);
        arm(timeouts.idle(), "idle");
    }

    private void arm(Duration after, String which) {
        pending = TIMER.schedule(() -> fire(after, which), after.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void fire(Duration after, String which) {
        stalled =
                (started ? "went quiet for " : "sent nothing for ") + seconds(after) + " (the " + which + " time-out)";
        stop.run();
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0
                ? duration.toSeconds() + " s"
                : String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }

    /** How the stream stalled, or null. */
    String stalled() {
        return stalled;
    }

    @Override
    public synchronized void close() {
        pending.cancel(false);
    }
}
