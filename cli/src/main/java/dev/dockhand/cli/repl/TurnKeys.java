package dev.dockhand.cli.repl;

import java.io.IOException;
import org.jline.terminal.Terminal;
import org.jline.utils.NonBlockingReader;
import org.slf4j.LoggerFactory;

/**
 * Watches the keyboard while a turn runs, for Ctrl-O (show or fold what the running sub-agents did). It takes only
 * that key: at anything else typed ahead it stops watching and leaves the keys, unread, to the next prompt, so
 * type-ahead is never lost. A question ({@link ReplKeys#ask}) reads keys under the same lock, so the two never read at
 * once and an answer is never taken for Ctrl-O.
 */
final class TurnKeys implements AutoCloseable {
    static final int CTRL_O = 15;
    /** How long each look at the keyboard waits: the most that closing, or a question, waits for the watcher. */
    private static final long LOOK_MILLIS = 50;

    private final NonBlockingReader keys;
    private final Runnable onCtrlO;
    private final Thread thread;
    private volatile boolean closed;

    private TurnKeys(Terminal terminal, Runnable onCtrlO) {
        this.keys = terminal.reader();
        this.onCtrlO = onCtrlO;
        this.thread = new Thread(this::watch, "dockhand-turn-keys");
        thread.setDaemon(true);
    }

    /** Starts watching for Ctrl-O, running {@code onCtrlO} at each, until closed. */
    static TurnKeys watch(Terminal terminal, Runnable onCtrlO) {
        TurnKeys watcher = new TurnKeys(terminal, onCtrlO);
        watcher.thread.start();
        return watcher;
    }

    private void watch() {
        try {
            while (!closed) {
                int next;
                synchronized (ReplKeys.READING) {
                    next = keys.peek(LOOK_MILLIS);
                    if (next == CTRL_O) {
                        keys.read();
                    }
                }
                if (next == CTRL_O) {
                    onCtrlO.run();
                } else if (next != NonBlockingReader.READ_EXPIRED) {
                    // Typed ahead for the next prompt, or the end of input: not ours to read.
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            LoggerFactory.getLogger(TurnKeys.class).warn("watching the keyboard during a turn failed", e);
        }
    }

    /** Stops watching, and returns once the watcher no longer reads, so the prompt has the keyboard to itself. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
