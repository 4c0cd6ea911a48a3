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
        return times(connect, 4);
    }

    /**
     * {@code duration} times {@code factor}, failing with an ArithmeticException on overflow as
     * {@link Duration#multipliedBy} does. That method goes through BigDecimal, whose static initialiser takes about
     * 13 ms on JDK 25 (under 1 ms on 17): it computes 5 to the power 65,536. Jackson's parsers need BigDecimal too,
     * but the first of them usually runs on the validator's warm-up thread; this would put it on the main thread,
     * before the first request.
     */
    static Duration times(Duration duration, long factor) {
        return Duration.ofSeconds(
                Math.multiplyExact(duration.getSeconds(), factor),
                Math.multiplyExact((long) duration.getNano(), factor));
    }
}
