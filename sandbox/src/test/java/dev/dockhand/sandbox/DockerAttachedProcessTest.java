package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A program started in the container with its standard streams attached, against a real Docker engine. */
@Tag("docker")
class DockerAttachedProcessTest {
    @TempDir
    Path workspace;

    private DockerSandbox sandbox;

    @AfterEach
    void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    private DockerSandbox sandbox() throws Exception {
        workspace = workspace.toRealPath();
        sandbox = DockerAvailable.sandbox(DockerSettings.DEFAULT, workspace, Map.of());
        return sandbox;
    }

    @Test
    void whatIsWrittenToStdinComesBackOnStdoutAndStderrAndTheExitCodeAfterIt() throws Exception {
        Process process = sandbox()
                .startAttached(
                        List.of(
                                "bash",
                                "-c",
                                "while read -r line; do [ \"$line\" = stop ] && exit 3; echo \"out:$line\";"
                                        + " echo \"err:$line\" >&2; done"),
                        Map.of(),
                        workspace);

        // Not closed: docker-java cannot end an exec's stdin (see DockerAttachedProcess); the program ends by itself.
        OutputStream stdin = process.getOutputStream();
        stdin.write("a\nb\nstop\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();

        assertEquals("out:a\nout:b\n", new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals("err:a\nerr:b\n", new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(3, process.waitFor());
        assertFalse(process.isAlive());
    }

    @Test
    void argumentsReachTheProgramAsGivenWithItsEnvironmentAndFolder() throws Exception {
        Files.createDirectory(workspace.toRealPath().resolve("sub"));
        Process process = sandbox()
                .startAttached(
                        List.of(
                                "bash",
                                "-c",
                                "printf '%s|' \"$@\" \"$GREETING\" \"$PWD\"",
                                "x",
                                "it's",
                                "$HOME",
                                "a b"),
                        Map.of("GREETING", "hello"),
                        workspace.resolve("sub"));

        assertEquals(
                "it's|$HOME|a b|hello|" + workspace.resolve("sub") + "|",
                new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, process.waitFor());
    }

    @Test
    void destroyKillsEveryProcessTheProgramStartedInTheContainer() throws Exception {
        String sleeper = "sleep 1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
        Process process = sandbox()
                .startAttached(
                        List.of("bash", "-c", sleeper + " & setsid " + sleeper + " & echo started; wait"),
                        Map.of(),
                        workspace);
        BufferedReader stdout =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("started", stdout.readLine());

        process.destroy();

        assertFalse(process.isAlive());
        // The pattern's brackets keep this command's own line from matching it.
        List<String> lines = new CopyOnWriteArrayList<>();
        ExecResult counted = sandbox.exec(
                new ExecRequest(
                        "ps -eo args= | grep -c '[s]" + sleeper.substring(1) + "' || true",
                        workspace,
                        Duration.ofSeconds(30)),
                lines::add,
                new Cancellation());
        assertEquals(ExecResult.exited(0), counted);
        assertEquals(List.of("0"), lines);
    }

    @Test
    void aSandboxThatConfinesNothingRefusesToStartAnAttachedProgram() {
        LocalSandbox local = new LocalSandbox(Map.of("PATH", System.getenv("PATH")));

        UnsupportedOperationException refused = assertThrows(
                UnsupportedOperationException.class,
                () -> local.startAttached(List.of("true"), Map.of(), Path.of("/")));
        assertEquals("the none sandbox confines nothing, so it starts no program to be confined", refused.getMessage());
    }
}
