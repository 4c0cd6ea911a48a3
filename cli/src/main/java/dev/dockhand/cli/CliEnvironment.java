package dev.dockhand.cli;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the command reads from outside itself: environment variables, the working directory, Dockhand's home folder
 * and stdin. Injected so tests never touch the real process environment or stdin.
 */
public record CliEnvironment(
        Map<String, String> variables,
        Path workingDirectory,
        Path home,
        InputStream stdin,
        boolean stdinIsTerminal,
        boolean handleSignals) {

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
        String homeOverride = System.getProperty("dockhand.home", variables.get("DOCKHAND_HOME"));
        Path home = homeOverride != null && !homeOverride.isBlank()
                ? Path.of(homeOverride)
                : Path.of(System.getProperty("user.home"), ".dockhand");
        return new CliEnvironment(
                variables, Path.of("").toAbsolutePath(), home, System.in, Terminals.stdinIsTerminal(), true);
    }
}
