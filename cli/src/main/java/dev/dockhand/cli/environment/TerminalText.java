package dev.dockhand.cli.environment;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * What Dockhand writes to stdout and stderr, made safe for a terminal on its way out: escape sequences (CSI, OSC and
 * the string controls DCS, SOS, PM and APC) and control characters other than newline and tab are dropped, whoever
 * wrote the text. The model's answer, a command's error, an MCP server's stderr or description, a project's file
 * names and settings all reach these streams, and one OSC 52 in any of them writes the user's clipboard, one cursor
 * move rewrites a line above. {@link Rendering#printable} cleans lines where they are made; this is the last guard,
 * for every place that forgets.
 *
 * <p>A sequence may arrive split over writes (a streamed answer), so the filter keeps its state between them. An OSC
 * or string control that never ends is ended by the next newline, so that the rest of the output is not swallowed.
 * stdout keeps the invisible characters {@link Rendering#printable} drops, and only stderr, which is for people alone,
 * loses them too.
 *
 * <p>Output that is data goes around the filter, through {@link #unfiltered}: JSON, which {@code Json.writePrintable}
 * escapes itself (the filter would swallow the rest of a line after a raw U+009D and so break the JSON), and a diff
 * bound for a file rather than a terminal, whose carriage returns belong to it. Text for people goes through the filter
 * whether stdout is a terminal or not: a pipe or a log is read on a terminal later.
 */
public final class TerminalText extends FilterWriter {
    private static final char ESC = '\u001B';
    private static final char BEL = '\u0007';

    private enum State {
        TEXT,
        ESCAPE,
        CSI,
        STRING,
        STRING_ESCAPE
    }

    private final boolean dropInvisible;
    private State state = State.TEXT;

    private TerminalText(Writer out, boolean dropInvisible) {
        super(out);
        this.dropInvisible = dropInvisible;
    }

    /** For stdout: escape sequences and control characters go. */
    public static Writer forOutput(Writer out) {
        return new TerminalText(out, false);
    }

    /** stdout as commands get it: filtered as {@link #forOutput} says, with {@code stdout} itself kept beneath. */
    public static PrintWriter output(PrintWriter stdout) {
        return new Output(stdout);
    }

    /**
     * What is beneath {@code out}'s filter, for output that is data; {@code out} itself when it has no filter (a test's
     * writer). Writes to both keep their order: the filter holds back nothing but an escape sequence's state.
     */
    public static PrintWriter unfiltered(PrintWriter out) {
        return out instanceof Output output ? output.stdout : out;
    }

    /** A filtered stdout that knows the stream it filters. */
    private static final class Output extends PrintWriter {
        private final PrintWriter stdout;

        Output(PrintWriter stdout) {
            super(forOutput(stdout), true);
            this.stdout = stdout;
        }
    }

    /** For stderr, read by people only: invisible and reordering characters go too. */
    public static Writer forMessages(Writer out) {
        return new TerminalText(out, true);
    }

    @Override
    public void write(int c) throws IOException {
        synchronized (lock) {
            accept((char) c);
        }
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        synchronized (lock) {
            for (int i = offset; i < offset + length; i++) {
                accept(chars[i]);
            }
        }
    }

    @Override
    public void write(String text, int offset, int length) throws IOException {
        synchronized (lock) {
            for (int i = offset; i < offset + length; i++) {
                accept(text.charAt(i));
            }
        }
    }

    private void accept(char c) throws IOException {
        switch (state) {
            case TEXT -> text(c);
            case ESCAPE -> {
                if (c == '[') {
                    state = State.CSI;
                } else if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_') {
                    state = State.STRING;
                } else {
                    // A two-character sequence (ESC c resets the terminal): both go.
                    state = State.TEXT;
                    if (c == '\n') {
                        out.write(c);
                    }
                }
            }
            case CSI -> {
                if (c >= 0x40 && c <= 0x7e) {
                    state = State.TEXT;
                } else if (c < 0x20 || c > 0x3f) {
                    // Not a CSI after all: what follows is text again.
                    state = State.TEXT;
                    text(c);
                }
            }
            case STRING -> {
                if (c == BEL) {
                    state = State.TEXT;
                } else if (c == ESC) {
                    state = State.STRING_ESCAPE;
                } else if (c == '\n') {
                    state = State.TEXT;
                    out.write(c);
                }
            }
            case STRING_ESCAPE -> {
                state = State.TEXT;
                if (c != '\\') {
                    // Another sequence starts: the string ended without its terminator.
                    state = State.ESCAPE;
                    accept(c);
                }
            }
        }
    }

    private void text(char c) throws IOException {
        if (c == ESC) {
            state = State.ESCAPE;
        } else if (c == '\u009B') {
            // The one-character forms of CSI and of the string controls, which some terminals honour.
            state = State.CSI;
        } else if (c == '\u009D' || c == '\u0090' || c == '\u0098' || c == '\u009E' || c == '\u009F') {
            state = State.STRING;
        } else if (c == '\n' || c == '\t') {
            out.write(c);
        } else if (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f) && !(dropInvisible && Rendering.hidden(c))) {
            out.write(c);
        }
    }
}
