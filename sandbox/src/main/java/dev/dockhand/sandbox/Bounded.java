package dev.dockhand.sandbox;

import com.github.dockerjava.api.DockerClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work on the engine that must not hold up the end of a session: done on a daemon thread of its own and waited for at
 * most a limit, or for as long as the engine goes on answering. docker-java's calls have no time limit of their own (an
 * exec may rightly stream for as long as its command runs), so an engine that accepts a connection and never answers
 * would otherwise keep Dockhand from exiting; but slow work on a live engine (a big workspace copied over a slow link)
 * must not be taken for a stalled engine.
 */
final class Bounded {
    private static final Logger log = LoggerFactory.getLogger(Bounded.class);

    /** How long a ping of the engine is waited for; one that answers takes milliseconds, even over ssh. */
    static final Duration PING_LIMIT = Duration.ofSeconds(5);
    /**
     * The longest a step is waited for even while the engine answers: a removal stuck in the kernel (a hung network
     * file system under the container) can leave the engine answering pings for ever, and the user's exit must end.
     */
    static final Duration MOST = Duration.ofMinutes(5);

    private Bounded() {}

    /** {@link #run(String, Duration, BooleanSupplier, Runnable)} that gives up at the first limit. */
    static boolean run(String name, Duration limit, Runnable work) {
        return run(name, limit, () -> false, work);
    }

    /**
     * Runs {@code work} and waits for it a {@code limit} at a time, asking {@code alive} after each whether to go on
     * waiting, and never longer than {@link #MOST} in all. Returns false when it gave up: the work goes on, on a
     * daemon thread the JVM does not wait for at exit. A failure of the work is logged; it did finish.
     */
    static boolean run(String name, Duration limit, BooleanSupplier alive, Runnable work) {
        return run(name, limit, MOST, alive, work);
    }

    /** {@link #run(String, Duration, BooleanSupplier, Runnable)} with {@code most} in place of {@link #MOST}. */
    static boolean run(String name, Duration limit, Duration most, BooleanSupplier alive, Runnable work) {
        CompletableFuture<Void> done = start(name, work);
        long end = System.nanoTime() + most.toNanos();
        while (true) {
            try {
                done.get(limit.toNanos(), TimeUnit.NANOSECONDS);
                return true;
            } catch (TimeoutException slow) {
                if (System.nanoTime() - end >= 0 || !alive.getAsBoolean()) {
                    return false;
                }
            } catch (ExecutionException e) {
                log.warn("{} failed", name, e.getCause());
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** Whether the engine answers a ping within {@code limit}; a refusal or an error is no answer. */
    static boolean answers(DockerClient docker, Duration limit) {
        CompletableFuture<Void> done =
                start("dockhand-engine-ping", () -> docker.pingCmd().exec());
        try {
            done.get(limit.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException | ExecutionException silent) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static CompletableFuture<Void> start(String name, Runnable work) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        work.run();
                        done.complete(null);
                    } catch (RuntimeException | Error e) {
                        done.completeExceptionally(e);
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
        return done;
    }
}
