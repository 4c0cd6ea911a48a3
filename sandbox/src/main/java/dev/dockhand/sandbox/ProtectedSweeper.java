package dev.dockhand.sandbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the protected paths are put back as the session found them (a sweep, see {@link ProtectedSweep}): after each
 * command and each call of a program in the sandbox (an MCP server), on the caller's thread, with the result saying
 * what was done; and, while a background command or such a program runs, every {@link #PERIOD} on a daemon thread, and
 * once more after the last of them has ended. What those sweeps did is said in the next command's result.
 *
 * <p>Only the periodic sweep covers what runs in the background between two commands, and only narrows the time a
 * planted {@code .git/commondir} or a replaced link stands on the user's machine to about a second: a program there that
 * reads the place within it (the user's own {@code git status}, an editor's git integration) can still meet it. Each
 * tick only looks ({@link ProtectedMounts#steps}: a few {@code lstat} calls, and a walk of each git folder's
 * {@code modules}, whose size is what a tick costs); the container is asked to do something only when something is to
 * be done.
 */
final class ProtectedSweeper {
    private static final Logger log = LoggerFactory.getLogger(ProtectedSweeper.class);

    /** How often the protected paths are looked at while something runs in the background. */
    static final Duration PERIOD = Duration.ofSeconds(1);

    /** Who changed what a periodic sweep found, as the notices say it. */
    private static final String BACKGROUND = "a command or program running in the background in the sandbox";

    private final Supplier<ProtectedSweep.Outcome> sweep;
    private final BooleanSupplier running;
    private final Duration period;
    /** Held by one sweep at a time, so that two never report the same change. */
    private final Object sweeping = new Object();

    /** What the periodic sweeps did since the last {@link #sweep}, each sentence once (a failure repeats each tick). */
    private final Set<String> pending = new LinkedHashSet<>();

    private ScheduledExecutorService timer;
    private ScheduledFuture<?> ticking;
    private boolean stopped;

    /**
     * @param sweep one sweep, where it is safe ({@link SandboxContainer#sweep})
     * @param running whether a background command or a program of the session still runs in the sandbox
     */
    ProtectedSweeper(Supplier<ProtectedSweep.Outcome> sweep, BooleanSupplier running, Duration period) {
        this.sweep = sweep;
        this.running = running;
        this.period = period;
    }

    /**
     * Sweeps now, on this thread; returns the notices for the result of what just ended ({@code who} changed what was
     * found: "the command"), after those of the periodic sweeps since the last call.
     */
    List<String> sweep(String who) {
        ProtectedSweep.Outcome outcome = sweepOnce();
        List<String> notices;
        synchronized (this) {
            notices = new ArrayList<>(pending);
            pending.clear();
        }
        notices.addAll(outcome.notices(who));
        return notices;
    }

    /** Sweeps every {@link #PERIOD} from now on, until nothing runs in the background any more. */
    synchronized void watch() {
        if (stopped || ticking != null) {
            return;
        }
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "dockhand-protected-sweep");
                thread.setDaemon(true);
                return thread;
            });
        }
        ticking = timer.scheduleWithFixedDelay(this::tick, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the periodic sweeps for good; the sandbox is closing (and sweeps once more when its container is gone). */
    synchronized void stop() {
        stopped = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void tick() {
        try {
            // Looked at before the sweep, so the last sweep comes after the last of them has ended.
            boolean alive = running.getAsBoolean();
            ProtectedSweep.Outcome outcome = sweepOnce();
            synchronized (this) {
                for (String notice : outcome.notices(BACKGROUND)) {
                    if (pending.add(notice)) {
                        log.warn("{}", notice);
                    }
                }
                // Looked at again under the lock: a background command started meanwhile called watch() after it was
                // listed, so it is seen here, or its watch() comes after this and schedules the ticks anew.
                if (!alive && !running.getAsBoolean() && ticking != null) {
                    ticking.cancel(false);
                    ticking = null;
                }
            }
        } catch (RuntimeException e) {
            log.error("sweeping the protected paths failed", e);
        }
    }

    private ProtectedSweep.Outcome sweepOnce() {
        synchronized (sweeping) {
            return sweep.get();
        }
    }
}
