package dev.dockhand.sandbox;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work on the engine that must not hold up the end of a session: done on a daemon thread of its own and waited for at
 * most a limit. docker-java's calls have no time limit of their own (an exec may rightly stream for as long as its
 * command runs), so an engine that accepts a connection and never answers would otherwise keep Dockhand from exiting.
 */
final class Bounded {
    private static final Logger log = LoggerFactory.getLogger(Bounded.class);

    private Bounded() {}

    /**
     * Runs {@code work} and waits for it at most {@code limit}. Returns false when it has not finished by then: it
     * goes on, on a daemon thread the JVM does not wait for at exit. A failure of the work is logged; it did finish.
     */
    static boolean run(String name, Duration limit, Runnable work) {
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
        try {
            done.get(limit.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException stalled) {
            return false;
        } catch (ExecutionException e) {
            log.warn("{} failed", name, e.getCause());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
