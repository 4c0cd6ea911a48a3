package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.testing.ScriptedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run loads is what it pays for at start-up, so runs that need no Docker, no line editor or no model client
 * must not load those classes at all. Each case runs the real entry point in a JVM of its own, without a start-up
 * archive (with JDK 25's AOT cache the JVM loads every class the cache holds, whether the run uses it or not), and
 * reads the JVM's own class-loading log.
 */
public class ClassLoadingTest {
    /**
     * docker-java and the code that drives it. Not DockerSettings: the sandbox limits are options like any other,
     * checked in every run whatever the sandbox, and that record calls no Docker code.
     */
    static final List<String> DOCKER = List.of(
            "com.github.dockerjava.",
            "dev.dockhand.sandbox.DockerSandbox",
            "dev.dockhand.sandbox.ContainerSpec",
            "dev.dockhand.cli.session.DockerSandboxes");

    /** The MCP SDK, its reactive library and Dockhand's MCP client: loaded only when a server is configured. */
    static final List<String> MCP = List.of("io.modelcontextprotocol.", "reactor.", "dev.dockhand.tools.mcp.");

    private static final List<String> LINE_EDITOR = List.of("org.jline.", "dev.dockhand.cli.repl.Repl");
    private static final List<String> MODEL_CLIENT =
            List.of("com.fasterxml.jackson.databind.", "okhttp3.", "dev.dockhand.core.model.");

    @TempDir
    Path work;

    private record Run(int exitCode, String stdout, List<String> classes) {
        /** The loaded classes whose names start with any of these prefixes, in loading order. */
        List<String> loadedFrom(List<List<String>> groups) {
            return classes.stream()
                    .filter(name -> groups.stream().flatMap(List::stream).anyMatch(name::startsWith))
                    .toList();
        }
    }

    @Test
    void versionAndHelpLoadNeitherDockerNorTheLineEditorNorAModelClient() throws Exception {
        Run version = dockhand(List.of("--version"));
        Run help = dockhand(List.of("--help"));

        assertEquals(0, version.exitCode());
        assertTrue(version.stdout().startsWith("dockhand "), version.stdout());
        assertEquals(List.of(), version.loadedFrom(List.of(DOCKER, LINE_EDITOR, MODEL_CLIENT, MCP)));
        assertEquals(0, help.exitCode());
        assertEquals(List.of(), help.loadedFrom(List.of(DOCKER, LINE_EDITOR, MODEL_CLIENT)));
    }

    @Test
    void aPromptAnsweredWithoutASandboxLoadsNeitherDockerNorTheLineEditor() throws Exception {
        try (ScriptedServer model = new ScriptedServer(List.of(ScriptedServer.answer("Hello.")))) {
            Run run = dockhand(ChildProcess.helloTo(model.baseUrl()));

            assertEquals(new Run(ExitCodes.OK, "Hello.\n", run.classes()), run);
            // The log does list what the run used: otherwise the empty list below would prove nothing.
            assertTrue(run.classes().contains("okhttp3.OkHttpClient"));
            assertEquals(List.of(), run.loadedFrom(List.of(DOCKER, LINE_EDITOR, MCP)));
        }
    }

    /** The real entry point with these arguments, in a fresh JVM that logs every class it loads. */
    private Run dockhand(List<String> arguments) throws Exception {
        Path run = Files.createTempDirectory(work, "run");
        Path log = run.resolve("classes.txt");
        ChildProcess.Outcome outcome = ChildProcess.run(
                ChildProcess.dockhand(List.of("-Xlog:class+load=info:file=" + log + ":none"), arguments),
                run,
                ChildProcess.variablesFor(run),
                Duration.ofMinutes(1));
        // Each line is a class name, then where it came from.
        List<String> classes = Files.readAllLines(log).stream()
                .map(line -> line.split(" ", 2)[0])
                .toList();
        return new Run(outcome.exitCode(), outcome.stdout(), classes);
    }
}
