package dev.dockhand.cli.repl;

import dev.dockhand.core.HostPrograms;
import java.io.IOException;
import java.nio.file.Path;
import org.jline.terminal.Terminal;
import org.jline.utils.OSUtils;

/**
 * The programs jline starts on this machine to learn about the terminal: {@code infocmp} for a {@code TERM} whose
 * capabilities it does not bundle ({@code tmux-256color}, {@code xterm-kitty}, {@code alacritty}), and {@code tty},
 * {@code stty} and {@code test} when it has no native access. jline finds them itself on the {@code PATH}, relative
 * entries included, and falls back to the bare name, which Java looks up on the {@code PATH} again: with {@code .} in
 * it, a cloned repository's {@code ./infocmp} would run as the REPL opens, before the trust question. So each is set to
 * the program in the absolute folders of the {@code PATH} ({@link HostPrograms}), or to a path that cannot exist, so
 * that starting it fails and jline falls back (to its bundled {@code ansi} capabilities for {@code infocmp}).
 */
final class TerminalPrograms {
    /** A folder no program can be in: {@code /dev/null} is no folder. */
    static final String NOWHERE = "/dev/null";

    private TerminalPrograms() {}

    /** Builds a terminal: jline's answer or the test's. */
    @FunctionalInterface
    interface Opener {
        Terminal open() throws IOException;
    }

    /** The terminal {@code opener} builds, once jline's programs are those of {@code path} (a PATH value, or null). */
    static Terminal open(String path, Opener opener) throws IOException {
        pin(path);
        return opener.open();
    }

    /** Sets each program jline may start to the one in the absolute folders of {@code path}, or to none. */
    static void pin(String path) {
        OSUtils.INFOCMP_COMMAND = program("infocmp", path);
        OSUtils.STTY_COMMAND = program("stty", path);
        OSUtils.TTY_COMMAND = program("tty", path);
        OSUtils.TEST_COMMAND = program("test", path);
    }

    /** {@code name} in the absolute folders of {@code path} as an absolute path, or a path under {@link #NOWHERE}. */
    static String program(String name, String path) {
        return HostPrograms.find(name, path).map(Path::toString).orElse(NOWHERE + "/" + name);
    }
}
