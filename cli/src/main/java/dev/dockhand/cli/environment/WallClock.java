package dev.dockhand.cli.environment;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * The local date and time, read without java.time's zone rules. {@code LocalDateTime.now()} loads the time-zone rules
 * provider (a service lookup over the classpath and a parse of the tz database) and a formatter for the session id
 * another few dozen classes; together they cost tens of milliseconds of every {@code -p} call on a cold JVM. The
 * offset that {@link TimeZone} gives for this instant, daylight saving included, is all a timestamp needs.
 */
public final class WallClock {
    private WallClock() {}

    public static LocalDateTime now() {
        long millis = System.currentTimeMillis();
        int offsetSeconds = TimeZone.getDefault().getOffset(millis) / 1000;
        return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), 0, ZoneOffset.ofTotalSeconds(offsetSeconds));
    }

    /** Like {@code 20261122-081053}: sorts by time as text. */
    public static String compact(LocalDateTime time) {
        StringBuilder text = new StringBuilder(15);
        text.append(time.getYear());
        twoDigits(text, time.getMonthValue());
        twoDigits(text, time.getDayOfMonth());
        text.append('-');
        twoDigits(text, time.getHour());
        twoDigits(text, time.getMinute());
        twoDigits(text, time.getSecond());
        return text.toString();
    }

    private static void twoDigits(StringBuilder text, int value) {
        if (value < 10) {
            text.append('0');
        }
        text.append(value);
    }
}
