package dev.dockhand.cli;

import java.time.Duration;

/** Small text helpers shared by the renderers. */
final class Rendering {
    private static final int SUMMARY_CHARS = 80;

    private Rendering() {}

    /** One line, at most 80 characters, for a summary shown beside a tool name. */
    static String shorten(String text) {
        String line = text.strip().replace('\n', ' ').replace('\r', ' ');
        return line.length() <= SUMMARY_CHARS ? line : line.substring(0, SUMMARY_CHARS - 1) + "…";
    }

    /** 850 ms, 1.2 s, 2 m 5 s. */
    static String duration(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format("%.1f s", millis / 1000.0);
        }
        return duration.toMinutes() + " m " + duration.toSecondsPart() + " s";
    }
}
