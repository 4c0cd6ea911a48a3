package dev.dockhand.cli.repl;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.utils.NonBlockingReader;

/**
 * One-key answers to a question on the REPL's terminal. Keys typed before the question is on screen are thrown away,
 * so a stray keystroke never answers it; while it waits, Ctrl-C is read as a key (ISIG off), not sent as the signal
 * that would cancel the whole turn; Esc, Ctrl-C and the end of input answer "no".
 */
public final class ReplKeys {
    /** What {@link #ask} returns for Esc, Ctrl-C or the end of input. */
    static final int NO_ANSWER = -1;

    private static final int ESC = 27;
    private static final int CTRL_C = 3;
    private static final long ESCAPE_SEQUENCE_MILLIS = 40;

    /**
     * Held while keys are read: by a question (all of an approval, with its reason line) and by {@link TurnKeys}, so
     * that only one of them reads at a time.
     */
    static final Object READING = new Object();

    private ReplKeys() {}

    /** Shows the question with {@code show} and returns the first key among {@code answers}, or {@link #NO_ANSWER}. */
    static int ask(Terminal terminal, String answers, Runnable show) {
        synchronized (READING) {
            return askAlone(terminal, answers, show);
        }
    }

    private static int askAlone(Terminal terminal, String answers, Runnable show) {
        Attributes saved = terminal.enterRawMode();
        try {
            Attributes raw = terminal.getAttributes();
            raw.setLocalFlag(Attributes.LocalFlag.ISIG, false);
            terminal.setAttributes(raw);
            NonBlockingReader keys = terminal.reader();
            while (keys.read(1) >= 0) {
                // Typed before the question was on screen: not an answer to it.
            }
            show.run();
            return nextAnswerKey(keys, answers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            terminal.setAttributes(saved);
        }
    }

    private static int nextAnswerKey(NonBlockingReader keys, String answers) throws IOException {
        while (true) {
            int key = keys.read();
            if (key < 0 || key == CTRL_C) {
                return NO_ANSWER;
            }
            if (key == ESC) {
                // Arrow keys and the like also start with Esc: they are sequences, and ignored.
                if (keys.peek(ESCAPE_SEQUENCE_MILLIS) < 0) {
                    return NO_ANSWER;
                }
                while (keys.read(ESCAPE_SEQUENCE_MILLIS) >= 0) {
                    // The rest of the sequence.
                }
                continue;
            }
            if (answers.indexOf(key) >= 0) {
                return key;
            }
        }
    }
}
