package dev.dockhand.sandbox;

import dev.dockhand.core.sandbox.HostWrites;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The turns at writing a synced workspace's files on the host (see {@link HostWrites}): one lock, taken by the copy
 * back of a command's changes and by the file tools, fairly, so a tool waiting behind a copy back is next.
 */
final class HostWriteLock implements HostWrites {
    private final ReentrantLock lock = new ReentrantLock(true);

    @Override
    public Turn take() {
        lock.lock();
        return lock::unlock;
    }

    @Override
    public Optional<Turn> tryTake(Duration wait) throws InterruptedException {
        return lock.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS) ? Optional.of(lock::unlock) : Optional.empty();
    }

    /** Whether {@code thread} waits for a turn; for tests that order two writers without sleeping. */
    boolean waiting(Thread thread) {
        return lock.hasQueuedThread(thread);
    }
}
