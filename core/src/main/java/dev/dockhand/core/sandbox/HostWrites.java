package dev.dockhand.core.sandbox;

import java.time.Duration;
import java.util.Optional;

/**
 * Turns at writing the workspace's files on the host. With the {@link WorkspaceTransport#SYNC} transport the sandbox
 * writes them too, when it copies a command's changes back, possibly on a thread of its own (after a cancel): a file
 * tool writing the same file at that moment could have its edit replaced by the stale copy, or write an edit planned on
 * the text from before the copy over it. Both take a turn here, so one waits for the other; the file tools hold theirs
 * from opening the file to closing it.
 */
@FunctionalInterface
public interface HostWrites {
    /** For sandboxes that never write the host's files themselves: every turn is granted at once. */
    HostWrites NONE = () -> () -> {};

    /** Waits for the turn and returns it; close it when the writing is done. */
    Turn take();

    /**
     * Waits for the turn at most {@code wait}: empty when a copy back still holds it then (an engine slow to answer),
     * for a writer that must not hang the REPL on it.
     */
    default Optional<Turn> tryTake(Duration wait) throws InterruptedException {
        return Optional.of(take());
    }

    /** A turn being held. */
    interface Turn extends AutoCloseable {
        @Override
        void close();
    }
}
