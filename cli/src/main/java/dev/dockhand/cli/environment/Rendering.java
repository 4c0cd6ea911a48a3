package dev.dockhand.cli.environment;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/** Small text helpers shared by the renderers. */
public final class Rendering {
    private static final int SUMMARY_CHARS = 80;

    private Rendering() {}

    /** Escape sequences (CSI and OSC) a command or a model may print, colours and cursor moves included. */
    private static final Pattern ESCAPES =
            Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(\u0007|\u001B\\\\)?|\u001B.");

    /**
     * One line made safe to show: escape sequences and control characters removed, tabs as spaces. Neither a command's
     * output nor the model's text may move the cursor, retitle the window or recolour the screen.
     */
    public static String printable(String line) {
        String plain = ESCAPES.matcher(line).replaceAll("");
        StringBuilder out = new StringBuilder(plain.length());
        for (int i = 0; i < plain.length(); i++) {
            char c = plain.charAt(i);
            if (c == '\t') {
                out.append("    ");
            } else if (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f)) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** One line, at most 80 characters, for a summary shown beside a tool name. */
    public static String shorten(String text) {
        String line = text.strip().replace('\n', ' ').replace('\r', ' ');
        return line.length() <= SUMMARY_CHARS ? line : line.substring(0, SUMMARY_CHARS - 1) + "…";
    }

    /** 850 ms, 1.2 s, 2 m 5 s. */
    public static String duration(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        return duration.toMinutes() + " m " + duration.toSecondsPart() + " s";
    }
}
