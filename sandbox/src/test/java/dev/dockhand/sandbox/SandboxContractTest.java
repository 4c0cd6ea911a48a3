package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every sandbox promises; each implementation's test extends this. */
abstract class SandboxContractTest {
    @TempDir
    Path workspace;

    /** Where background commands' output files go: outside the workspace, like the session's tool outputs. */
    @TempDir
    Path outputs;

    protected Sandbox sandbox;
    protected final List<String> lines = new CopyOnWriteArrayList<>();

    protected abstract Sandbox createSandbox(Path workspace) throws Exception;

    @BeforeEach
    void start() throws Exception {
        workspace = workspace.toRealPath();
        sandbox = createSandbox(workspace);
    }

    @AfterEach
    void stop() {
        // Null when the sandbox could not start and the test was skipped (no Docker engine).
        if (sandbox != null) {
            sandbox.close();
        }
    }

    protected ExecResult run(String command, Duration timeout, Cancellation cancel) throws Exception {
        return sandbox.exec(new ExecRequest(command, workspace, timeout), lines::add, cancel);
    }

    protected ExecResult run(String command) throws Exception {
        return run(command, Duration.ofSeconds(30), new Cancellation());
    }

    /** A {@code sleep} no other process on this machine runs, so that finding it finds this test's. */
    protected static String sleeper() {
        return "sleep 1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
    }

    /** Waits for a condition that has no event to wait on (a file's content), polling; fails after two minutes. */
    protected static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited two minutes for " + what);
            Thread.sleep(20);
        }
    }

    protected static String content(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts, through the sandbox itself, that no process runs {@code sleeper}. */
    protected void assertNoneRuns(String sleeper) throws Exception {
        lines.clear();
        // [s]leep: the pattern must not match the command line of the shell that runs pgrep.
        run("pgrep -f '[" + sleeper.charAt(0) + "]" + sleeper.substring(1) + "$' || echo none");
        assertEquals(List.of("none"), lines, "a process of the command outlived it");
        lines.clear();
    }

    @Test
    void runsInTheGivenFolderAndReportsTheExitCode() throws Exception {
        Files.createDirectories(workspace.resolve("sub"));

        ExecResult result = sandbox.exec(
                new ExecRequest("pwd; exit 3", workspace.resolve("sub"), Duration.ofSeconds(30)),
                lines::add,
                new Cancellation());

        assertEquals(ExecResult.exited(3), result);
        assertEquals(List.of(workspace.resolve("sub").toString()), lines);
    }

    @Test
    void combinesStdoutAndStderrLineByLine() throws Exception {
        ExecResult result = run("echo out; echo err >&2; printf 'no newline'");

        assertEquals(ExecResult.exited(0), result);
        assertEquals(
                List.of("err", "no newline", "out"), lines.stream().sorted().toList());
    }

    @Test
    void stdinIsClosedSoReadingFailsAtOnce() throws Exception {
        ExecResult result = run("read answer; echo \"read exit $?\"", Duration.ofSeconds(10), new Cancellation());

        assertEquals(ExecResult.exited(0), result);
        assertEquals(List.of("read exit 1"), lines);
    }

    @Test
    void timeoutKillsTheWholeProcessTree() throws Exception {
        String sleeper = sleeper();
        ExecResult result = run(sleeper + " & " + sleeper, Duration.ofMillis(500), new Cancellation());

        assertEquals(ExecResult.Termination.TIMED_OUT, result.termination());
        assertNoneRuns(sleeper);
    }

    @Test
    void processesACommandLeftBehindEndWhenItReturns() throws Exception {
        String sleeper = sleeper();
        ExecResult result = run(sleeper + " & echo started");

        assertEquals(ExecResult.exited(0), result);
        assertEquals(List.of("started"), lines);
        assertNoneRuns(sleeper);
    }

    @Test
    void processesThatLeftTheCommandsGroupOrClearedTheirEnvironmentEndToo() throws Exception {
        String sleeper = sleeper();
        ExecResult result = run("(setsid " + sleeper + " &); env -i \"$(command -v sleep)\" "
                + sleeper.substring("sleep ".length()) + " & exit 4");

        assertEquals(ExecResult.exited(4), result);
        assertNoneRuns(sleeper);
    }

    @Test
    void aBackgroundCommandRunsOnAfterItsCallReturnedUntilKilled() throws Exception {
        String sleeper = sleeper();

        BackgroundProcess started = sandbox.start("echo ready; echo warning >&2; " + sleeper, workspace, outputs);
        await(
                "its output",
                () -> content(started.outputFile()).contains("warning\n")
                        && content(started.outputFile()).contains("ready\n"));

        assertEquals("bg-1", started.id());
        assertEquals(outputs.resolve("bg-1.txt"), started.outputFile());
        assertEquals(Optional.empty(), started.result());
        assertEquals(List.of(started), sandbox.background());
        lines.clear();
        run("pgrep -f '[" + sleeper.charAt(0) + "]" + sleeper.substring(1) + "$' >/dev/null && echo running");
        assertEquals(List.of("running"), lines);

        ExecResult killed = started.kill();

        assertEquals(new ExecResult(137, ExecResult.Termination.CANCELLED), killed);
        assertEquals(Optional.of(killed), started.result());
        assertNoneRuns(sleeper);
    }

    @Test
    void aBackgroundCommandThatExitsReportsItsExitCodeAndWhatItLeftEnds() throws Exception {
        String sleeper = sleeper();
        BackgroundProcess first = sandbox.start("exit 0", workspace, outputs);

        BackgroundProcess second = sandbox.start(sleeper + " & echo done; exit 3", workspace, outputs);
        await("its end", () -> second.result().isPresent());

        assertEquals(Optional.of(ExecResult.exited(3)), second.result());
        assertEquals("done\n", content(second.outputFile()));
        assertEquals("bg-2", second.id());
        assertEquals(List.of(first, second), sandbox.background());
        assertNoneRuns(sleeper);
        assertEquals(ExecResult.exited(3), second.kill(), "killing an ended command only says how it ended");
    }

    @Test
    void closingTheSandboxKillsItsBackgroundCommands() throws Exception {
        String sleeper = sleeper();
        BackgroundProcess started = sandbox.start(sleeper, workspace, outputs);

        sandbox.close();

        assertEquals(Optional.of(new ExecResult(137, ExecResult.Termination.CANCELLED)), started.result());
        sandbox = createSandbox(workspace);
        assertNoneRuns(sleeper);
    }

    @Test
    void cancelKillsARunningCommandWithoutWaitingForItsEnd() throws Exception {
        String sleeper = sleeper();
        Cancellation cancel = new Cancellation();
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<ExecResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return sandbox.exec(
                        new ExecRequest(
                                "echo started; " + sleeper + "; touch finished", workspace, Duration.ofMinutes(5)),
                        line -> started.countDown(),
                        cancel);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(started.await(60, TimeUnit.SECONDS));

        cancel.cancel();
        ExecResult cancelled = result.get(60, TimeUnit.SECONDS);

        assertEquals(ExecResult.Termination.CANCELLED, cancelled.termination());
        // The result came while the thousand-second sleep would still run; how fast is for the sandbox bench.
        assertNoneRuns(sleeper);
        assertFalse(Files.exists(workspace.resolve("finished")), "the cancelled command went on running");
    }

    @Test
    void outputArrivesWhileTheCommandStillRuns() throws Exception {
        Cancellation cancel = new Cancellation();
        CountDownLatch first = new CountDownLatch(1);
        CompletableFuture<ExecResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return sandbox.exec(
                        new ExecRequest("echo first; sleep 30; echo never", workspace, Duration.ofMinutes(1)),
                        line -> first.countDown(),
                        cancel);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        assertTrue(first.await(60, TimeUnit.SECONDS), "the first line should arrive before the command ends");
        assertFalse(result.isDone());
        cancel.cancel();
        result.get(60, TimeUnit.SECONDS);
    }
}
