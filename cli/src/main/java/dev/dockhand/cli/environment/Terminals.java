package dev.dockhand.cli.environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Cheap terminal checks that load no terminal library (single-shot runs must start fast). */
public final class Terminals {
    private Terminals() {}

    /**
     * Whether stdin is a terminal. {@code System.console()} is not enough: it is null whenever stdout is redirected,
     * even with a terminal on stdin, and reading such a stdin would wait for the user forever.
     */
    static boolean stdinIsTerminal() {
        return isTerminal(0);
    }

    /** Whether stdout is a terminal, where a carriage return or an escape sequence acts instead of being kept. */
    static boolean stdoutIsTerminal() {
        return isTerminal(1);
    }

    private static boolean isTerminal(int fd) {
        try {
            String target =
                    Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }
}
