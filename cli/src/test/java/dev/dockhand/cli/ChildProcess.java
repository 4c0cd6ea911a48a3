package dev.dockhand.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Dockhand, or its launcher, in a process of its own, for what only a real process shows: the classes a JVM loads,
 * the start-up archive, a trust store given as a system property, a signal.
 */
public final class ChildProcess {
    private ChildProcess() {}

    /** How a process ended: its exit code and what it printed. */
    public record Outcome(int exitCode, String stdout, String stderr) {}

    /** {@code java [jvmOptions] -cp <the tests' class path> dev.dockhand.cli.Main [arguments]}. */
    public static List<String> dockhand(List<String> jvmOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(arguments);
        return command;
    }

    /** The arguments of {@code dockhand -p hello} to an OpenAI-compatible model, with no sandbox and no retries. */
    public static List<String> helloTo(String baseUrl) {
        return List.of(
                "--sandbox",
                "none",
                "--provider",
                "openai",
                "--model",
                "m",
                "--retries",
                "0",
                "--base-url",
                baseUrl,
                "-p",
                "hello");
    }

    /** The variables a run needs: an API key, and a Dockhand home of its own under {@code run}. */
    public static Map<String, String> variablesFor(Path run) {
        return Map.of(
                "OPENAI_API_KEY",
                "sk-test",
                "DOCKHAND_HOME",
                run.resolve("home").toString());
    }

    /**
     * Starts {@code command} in {@code directory} with an empty stdin and these variables added to the tests' own
     * (never JAVA_TOOL_OPTIONS from the test runner: the JVM would announce it on stderr), stdout discarded and
     * stderr written to a file.
     */
    public static Process start(List<String> command, Path directory, Map<String, String> variables, Path stderr)
            throws IOException {
        return builder(command, directory, variables)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile())
                .start();
    }

    /** Runs {@code command} as {@link #start} does, with its stdout kept too, and fails the test if it outlasts limit. */
    public static Outcome run(List<String> command, Path directory, Map<String, String> variables, Duration limit)
            throws Exception {
        Path stdout = Files.createTempFile("dockhand-child", ".out");
        Path stderr = Files.createTempFile("dockhand-child", ".err");
        try {
            Process process = builder(command, directory, variables)
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command.get(0) + " did not finish within " + limit.toSeconds() + " s");
            }
            return new Outcome(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    private static ProcessBuilder builder(List<String> command, Path directory, Map<String, String> variables) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().putAll(variables);
        return builder;
    }
}
