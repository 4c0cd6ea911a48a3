package dev.dockhand.cli.repl;

import dev.dockhand.cli.environment.Rendering;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedCharSequence;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.jline.utils.InfoCmp;

/**
 * The REPL's output: finished lines are printed once and never touched again; below them a small live region (a
 * spinner, the line of an answer still streaming, a running command's last lines) is redrawn in place. Each update is
 * one write, so nothing flickers. Without cursor control (a dumb terminal) there is no live region, and without
 * colour (NO_COLOR) styles are dropped.
 */
public final class ReplScreen {
    private final Terminal terminal;
    private final PrintWriter writer;
    private final boolean ansi;
    private final boolean color;
    private final int colors;
    private List<AttributedString> live = List.of();
    private int liveRows;

    ReplScreen(Terminal terminal, boolean noColor) {
        this.terminal = terminal;
        this.writer = terminal.writer();
        this.ansi = !Terminal.TYPE_DUMB.equals(terminal.getType())
                && !Terminal.TYPE_DUMB_COLOR.equals(terminal.getType())
                && terminal.getWidth() > 0;
        this.color = ansi && !noColor;
        Integer maxColors = terminal.getNumericCapability(InfoCmp.Capability.max_colors);
        this.colors = maxColors == null || maxColors < 8 ? 8 : maxColors;
    }

    /** Whether lines can be redrawn in place. */
    boolean ansi() {
        return ansi;
    }

    /** Whether styles reach the terminal. */
    boolean color() {
        return color;
    }

    int width() {
        int width = terminal.getWidth();
        return width > 0 ? width : 80;
    }

    int height() {
        int height = terminal.getHeight();
        return height > 0 ? height : 24;
    }

    /** Prints finished lines above the live region. */
    synchronized void print(List<AttributedString> lines) {
        print(lines, live);
    }

    /** Prints finished lines and replaces the live region below them, in one write. */
    synchronized void print(List<AttributedString> lines, List<AttributedString> nextLive) {
        StringBuilder out = new StringBuilder();
        eraseLive(out);
        for (AttributedString line : lines) {
            out.append(render(line)).append('\n');
        }
        if (ansi) {
            live = fit(nextLive);
        }
        drawLive(out);
        flush(out);
    }

    synchronized void print(AttributedString line) {
        print(List.of(line));
    }

    synchronized void print(String text, AttributedStyle style) {
        List<AttributedString> lines = new ArrayList<>();
        text.lines().forEach(line -> lines.add(new AttributedString(line, style)));
        print(lines);
    }

    /** Replaces the live region; an empty list removes it. */
    synchronized void live(List<AttributedString> lines) {
        if (!ansi) {
            return;
        }
        if (lines.equals(live)) {
            return;
        }
        StringBuilder out = new StringBuilder();
        eraseLive(out);
        live = fit(lines);
        drawLive(out);
        flush(out);
    }

    /** Removes the live region, leaving the cursor at the start of an empty line. */
    synchronized void clearLive() {
        live(List.of());
    }

    /** Each live line cut to the width, so one line is one row and the region's height is known. */
    private List<AttributedString> fit(List<AttributedString> lines) {
        int room = width() - 1;
        int most = Math.max(1, height() - 2);
        List<AttributedString> fitted = new ArrayList<>();
        for (AttributedString line : lines.subList(Math.max(0, lines.size() - most), lines.size())) {
            fitted.add(line.length() > room ? line.subSequence(0, room) : line);
        }
        return fitted;
    }

    private void eraseLive(StringBuilder out) {
        if (liveRows == 0) {
            return;
        }
        // Row by row rather than "clear to the end of the screen", which would also wipe jline's status line.
        out.append('\r');
        if (liveRows > 1) {
            out.append("\033[").append(liveRows - 1).append('A');
        }
        for (int row = 0; row < liveRows; row++) {
            out.append("\033[2K");
            if (row < liveRows - 1) {
                out.append("\033[B");
            }
        }
        if (liveRows > 1) {
            out.append("\033[").append(liveRows - 1).append('A');
        }
        liveRows = 0;
    }

    private void drawLive(StringBuilder out) {
        for (int i = 0; i < live.size(); i++) {
            out.append(render(live.get(i)));
            if (i < live.size() - 1) {
                out.append('\n');
            }
        }
        liveRows = live.size();
    }

    /** Without the alternate character set jline would use for box drawing: every terminal today draws │ itself. */
    private String render(AttributedString line) {
        AttributedString safe = printable(line);
        return color
                ? safe.toAnsi(colors, AttributedCharSequence.ForceMode.None, terminal.getPalette(), null, null)
                : safe.toString();
    }

    /**
     * The line as {@link Rendering#printable} would make it, its styles kept. jline writes a line's characters as they
     * are, escape sequences included, so this is the last guard for every line the screen shows: a name, a rule or a
     * folder that some caller forgot to clean cannot move the cursor over the approval question above it, or reach
     * the clipboard. A line holds no newline either: a line is one row.
     */
    static AttributedString printable(AttributedString line) {
        String text = line.toString();
        boolean[] kept = Rendering.kept(text);
        boolean whole = true;
        for (int i = 0; i < kept.length && whole; i++) {
            whole = kept[i] && text.charAt(i) != '\t';
        }
        if (whole) {
            return line;
        }
        AttributedStringBuilder out = new AttributedStringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            if (kept[i]) {
                out.style(line.styleAt(i)).append(text.charAt(i) == '\t' ? "    " : String.valueOf(text.charAt(i)));
            }
        }
        return out.toAttributedString();
    }

    private void flush(StringBuilder out) {
        if (out.length() > 0) {
            writer.write(out.toString());
            writer.flush();
        }
    }
}
