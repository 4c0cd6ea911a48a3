package dev.dockhand.cli;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.testing.ScriptedModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The dockhand command line run in-process against a scripted model: its own workspace and home under a temporary
 * folder, its stdout and stderr captured, its environment a map the test controls.
 */
public final class CliHarness implements AutoCloseable {
    final ScriptedModel model = new ScriptedModel();
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final Map<String, String> variables = new HashMap<>();
    final Path temp;
    final Path workspace;
    /** Whether the run's stdout counts as a terminal; tests capture it, so by default it does not. */
    boolean stdoutIsFile;

    CliHarness(Path temp) throws IOException {
        this.temp = temp;
        this.workspace = Files.createDirectories(temp.resolve("project")).toRealPath();
        variables.put("OPENAI_API_KEY", "sk-test");
        variables.put("OPENAI_BASE_URL", model.baseUrl());
        variables.put("DOCKHAND_MODEL", "test-model");
        variables.put("PATH", System.getenv("PATH"));
    }

    /** Writes the user's settings file ({@code ~/.dockhand/settings.json} of this harness); returns its path. */
    Path userSettings(String json) throws IOException {
        Path file = temp.resolve("home/settings.json");
        Files.createDirectories(file.getParent());
        return Files.writeString(file, json);
    }

    /** Writes the workspace's {@code .dockhand/settings.json}; returns its path. */
    Path projectSettings(String json) throws IOException {
        Path file = workspace.resolve(".dockhand/settings.json");
        Files.createDirectories(file.getParent());
        return Files.writeString(file, json);
    }

    /** Runs with {@code --sandbox none} unless the arguments name a sandbox. */
    int run(InputStream stdin, boolean stdinIsTerminal, String... given) {
        List<String> args = new ArrayList<>();
        if (Arrays.stream(given).noneMatch(arg -> arg.startsWith("--sandbox"))) {
            args.addAll(List.of("--sandbox", "none"));
        }
        args.addAll(List.of(given));
        Path home = temp.resolve("home");
        CliEnvironment environment = new CliEnvironment(
                Map.copyOf(variables),
                workspace,
                home,
                stdin,
                stdinIsTerminal,
                false,
                home,
                Optional.empty(),
                stdoutIsFile);
        int printedBefore = out.getBuffer().length();
        int exit = Main.execute(args.toArray(String[]::new), environment, new PrintWriter(out), new PrintWriter(err));
        if (HeadlessSchema.machineOutput(args)) {
            // Every headless run of every test is held to the published event schema.
            List<String> problems = HeadlessSchema.problems(out.getBuffer().substring(printedBefore));
            org.junit.jupiter.api.Assertions.assertEquals(
                    List.of(), problems, "stdout must match docs/headless-events.schema.json");
        }
        return exit;
    }

    int run(String... args) {
        return run(InputStream.nullInputStream(), true, args);
    }

    /**
     * The same command line in a JVM of its own, for what only a real process shows (a signal, a kill -9): the same
     * workspace, home and model, stdin empty, stdout discarded and stderr written to {@code stderr}.
     */
    Process start(Path stderr, String... given) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--sandbox", "none"));
        arguments.addAll(List.of(given));
        Map<String, String> environment = new HashMap<>(variables);
        environment.put("DOCKHAND_HOME", temp.resolve("home").toString());
        return ChildProcess.start(ChildProcess.dockhand(List.of(), arguments), workspace, environment, stderr);
    }

    /**
     * Waits for a file the command run by {@code child} creates in the workspace, for as long as the child lives (a
     * loaded machine can take long to start a JVM and a shell), and fails the test with the child's stderr if the
     * child ends without creating it. The five minutes only stop a hung child from hanging the build.
     */
    void awaitFile(String name, Process child, Path childStderr) throws InterruptedException, IOException {
        Path file = workspace.resolve(name);
        long backstop = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!Files.exists(file) && child.isAlive() && System.nanoTime() < backstop) {
            Thread.sleep(20);
        }
        if (!Files.exists(file)) {
            String why = child.isAlive() ? "is still running" : "exited with " + child.exitValue();
            String stderr = Files.exists(childStderr) ? Files.readString(childStderr) : "";
            org.junit.jupiter.api.Assertions.fail(
                    name + " should have been created by the command; the child " + why + ", stderr:\n" + stderr);
        }
    }

    List<String> errLines() {
        return err.toString().lines().toList();
    }

    @Override
    public void close() {
        model.close();
    }
}
