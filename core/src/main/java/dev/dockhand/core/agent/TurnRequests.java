package dev.dockhand.core.agent;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The model requests of one turn of the main agent, counted across its sub-agents: each loop takes one before it
 * sends a request, and none is left once the main loop's limit is reached, whichever loop used them. The main loop's
 * count starts again with each turn; its sub-agents' share it and never reset it.
 */
final class TurnRequests {
    private final AtomicInteger used;
    private final int limit;
    private final boolean owner;

    TurnRequests(int limit) {
        this(new AtomicInteger(), limit, true);
    }

    private TurnRequests(AtomicInteger used, int limit, boolean owner) {
        this.used = used;
        this.limit = limit;
        this.owner = owner;
    }

    /** The same count, for a sub-agent's loop. */
    TurnRequests shared() {
        return new TurnRequests(used, limit, false);
    }

    void newTurn() {
        if (owner) {
            used.set(0);
        }
    }

    /** Takes one request; false when the turn has none left. */
    boolean take() {
        return used.incrementAndGet() <= limit;
    }
}
