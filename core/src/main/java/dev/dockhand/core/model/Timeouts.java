package dev.dockhand.core.model;

import java.time.Duration;

/**
 * How long a model request may wait: to connect, for the first byte of the reply, and between two events of the
 * stream. Reasoning models may think for minutes before their first byte; a stream that then goes quiet is stalled.
 */
public record Timeouts(Duration connect, Duration firstByte, Duration idle) {
    public static final Timeouts DEFAULT =
            new Timeouts(Duration.ofSeconds(15), Duration.ofMinutes(5), Duration.ofMinutes(2));

    /** How long writing a request body may stall: four times the connect time-out. */
    public Duration write() {
        return connect.multipliedBy(4);
    }
}
