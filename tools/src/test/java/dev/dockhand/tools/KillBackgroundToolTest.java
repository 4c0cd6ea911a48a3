package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.sandbox.LocalSandbox;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KillBackgroundToolTest {
    @TempDir
    Path workspace;

    @TempDir
    Path outputs;

    private final KillBackgroundTool tool = new KillBackgroundTool();
    private final LocalSandbox sandbox = new LocalSandbox(Map.of("PATH", System.getenv("PATH")));

    @AfterEach
    void close() {
        sandbox.close();
    }

    private ToolResult kill(String id) {
        return tool.execute(new KillBackgroundTool.Params(id), TestEnvironments.context(workspace, sandbox));
    }

    /** A {@code sleep} no other process on this machine runs, so that finding it finds this test's. */
    private static String sleeper() {
        return "sleep 1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
    }

    private static boolean runs(String sleeper) {
        return ProcessHandle.allProcesses()
                .anyMatch(process -> process.info().commandLine().orElse("").endsWith(sleeper));
    }

    @Test
    void killsARunningBackgroundCommandAndEveryProcessItStarted() throws Exception {
        String sleeper = sleeper();
        BackgroundProcess started = sandbox.start(sleeper + " & " + sleeper, workspace, outputs);

        ToolResult result = kill("bg-1");

        assertEquals(
                ToolResult.success(
                        "Killed bg-1 and every process it started. Its output is in " + outputs.resolve("bg-1.txt")
                                + ".",
                        "killed"),
                result);
        assertEquals(Optional.of(new ExecResult(137, ExecResult.Termination.CANCELLED)), started.result());
        assertEquals(false, runs(sleeper));
    }

    /** Waits, polling, for a background command to end; fails after 30 s. */
    private static void awaitEnd(BackgroundProcess started) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (started.result().isEmpty()) {
            assertTrue(System.nanoTime() < deadline, started.id() + " never ended");
            Thread.sleep(20);
        }
    }

    @Test
    void saysHowACommandThatHadAlreadyEndedEnded() throws Exception {
        awaitEnd(sandbox.start("exit 3", workspace, outputs));

        assertEquals(
                ToolResult.success(
                        "bg-1 had already ended: it exited with code 3. Its output is in " + outputs.resolve("bg-1.txt")
                                + ".",
                        "already ended: it exited with code 3"),
                kill("bg-1"));
    }

    @Test
    void anUnknownIdGetsTheSessionsBackgroundCommandsListed() throws Exception {
        sandbox.start("sleep 1000", workspace, outputs);
        awaitEnd(sandbox.start("exit 0", workspace, outputs));

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "There is no background command bg-7. This session's: bg-1 (sleep 1000; running), bg-2"
                                + " (exit 0; exited with code 0)."),
                kill("bg-7"));
    }

    @Test
    void anUnknownIdIsQuotedShortAndSaysWhenNoneWasStarted() {
        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "There is no background command " + "x".repeat(59) + "…. None was started in this session."),
                kill("x".repeat(5000)));
    }

    @Test
    void anUnknownIdIsCutBetweenWholeCharacters() {
        // U+1F600 straddles the 59-char cut.
        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "There is no background command " + "x".repeat(58) + "…. None was started in this session."),
                kill("x".repeat(58) + "\uD83D\uDE00" + "y".repeat(100)));
    }

    @Test
    void rejectsAnEmptyId() {
        assertEquals(Optional.of("id is empty."), tool.validate(new KillBackgroundTool.Params(" ")));
    }
}
