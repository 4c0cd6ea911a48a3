package dev.dockhand.cli.environment;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the command reads from outside itself: environment variables, the working directory, Dockhand's home folder,
 * stdin, and whether stdout is a terminal. Injected so tests never touch the real process environment or stdin.
 */
public record CliEnvironment(
        Map<String, String> variables,
        Path workingDirectory,
        Path home,
        InputStream stdin,
        boolean stdinIsTerminal,
        boolean handleSignals,
        Path settingsHome,
        Optional<String> homeNotice,
        boolean stdoutIsFile) {

    /**
     * {@code home} is where Dockhand writes (sessions, outputs, logs, history); {@code settingsHome} where it reads the
     * user's settings and context file, the same folder unless that one cannot be written (see {@link DockhandHome}).
     * stdout is taken for no file.
     */
    public CliEnvironment(
            Map<String, String> variables,
            Path workingDirectory,
            Path home,
            InputStream stdin,
            boolean stdinIsTerminal,
            boolean handleSignals) {
        this(variables, workingDirectory, home, stdin, stdinIsTerminal, handleSignals, home, Optional.empty(), false);
    }

    /** An environment for tests: no signal handlers are installed in the test JVM. */
    public CliEnvironment(
            Map<String, String> variables,
            Path workingDirectory,
            Path home,
            InputStream stdin,
            boolean stdinIsTerminal) {
        this(variables, workingDirectory, home, stdin, stdinIsTerminal, false);
    }

    public Optional<String> get(String name) {
        String value = variables.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    /** The real environment of this process. */
    public static CliEnvironment fromSystem() {
        Map<String, String> variables = System.getenv();
        Path workingDirectory = Path.of("").toAbsolutePath();
        DockhandHome.Choice home = DockhandHome.choose(
                variables,
                System.getProperty("dockhand.home", variables.get("DOCKHAND_HOME")),
                System.getProperty("user.home"),
                workingDirectory,
                DockhandHome::privateTemporaryFolder);
        return new CliEnvironment(
                variables,
                workingDirectory,
                home.data(),
                System.in,
                Terminals.stdinIsTerminal(),
                true,
                home.settings(),
                home.notice(),
                Terminals.stdoutIsFile());
    }
}
