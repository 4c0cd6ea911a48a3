package dev.dockhand.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A one-way cancellation signal shared by everything working on one turn: the model stream, the scheduler and the
 * running tools. Listeners let blocking work (an HTTP call, a child process) be interrupted promptly instead of polled.
 */
public final class Cancellation {
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** Signals cancellation; runs every registered listener once. Later calls do nothing. */
    public void cancel() {
        if (cancelled.compareAndSet(false, true)) {
            for (Runnable listener : listeners) {
                listener.run();
            }
        }
    }

    public boolean isCancelled() {
        return cancelled.get();
    }

    /**
     * Runs {@code listener} on cancellation, or at once if already cancelled. Close the returned registration when
     * the guarded work ends, so long sessions do not accumulate listeners.
     */
    public Registration onCancel(Runnable listener) {
        listeners.add(listener);
        if (cancelled.get()) {
            // cancel() may have iterated before the add; running twice is harmless for idempotent listeners,
            // which is all we register (closing a call, destroying a process).
            listener.run();
        }
        return () -> listeners.remove(listener);
    }

    /** Removes a listener registered with {@link #onCancel}. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
