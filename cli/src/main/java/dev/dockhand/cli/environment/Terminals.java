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

    /**
     * Whether stdout is a regular file ({@code > undo.patch}), where every byte is kept for whoever reads it. A pipe is
     * not: {@code | head} or {@code | grep} still ends on a terminal, where an escape sequence would act.
     */
    static boolean stdoutIsFile() {
        try {
            return Files.isRegularFile(Path.of("/proc/self/fd/1"));
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        }
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
