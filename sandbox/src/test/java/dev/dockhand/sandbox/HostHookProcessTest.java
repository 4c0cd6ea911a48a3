package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.hooks.HookProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostHookProcessTest {
    @TempDir
    Path workspace;

    private final HostHookProcess hooks = new HostHookProcess(Map.of("PATH", System.getenv("PATH"), "FROM_USER", "u"));

    private HookProcess.Finished run(String command, Duration timeout, Cancellation cancel) throws Exception {
        return hooks.run(
                new HookProcess.Request(
                        command, workspace, "{\"hook_event_name\":\"Stop\"}", timeout, Map.of("ADDED", "a")),
                cancel);
    }

    /** A {@code sleep} no other process on this machine runs, so that finding it finds this test's. */
    private static String sleeper() {
        return "sleep 1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
    }

    /** Whether a process runs {@code sleeper}, asked of pgrep ({@code [s]leep} keeps pgrep's own shell out). */
    private boolean runs(String sleeper) throws Exception {
        HookProcess.Finished found = run(
                "pgrep -f '[" + sleeper.charAt(0) + "]" + sleeper.substring(1) + "$' || echo none",
                Duration.ofSeconds(30),
                new Cancellation());
        return !found.stdout().strip().equals("none");
    }

    @Test
    void theHookReadsItsInputOnStdinInTheWorkspaceWithTheUsersVariables() throws Exception {
        HookProcess.Finished finished = run(
                "cat; echo; pwd; echo \"$FROM_USER $ADDED\"; echo oops >&2; exit 2",
                Duration.ofSeconds(30),
                new Cancellation());

        assertEquals(
                HookProcess.Finished.exited(
                        2, "{\"hook_event_name\":\"Stop\"}\n" + workspace.toRealPath() + "\nu a\n", "oops\n"),
                finished);
    }

    @Test
    void aHookThatOutlivesItsTimeoutIsStoppedWithEveryProcessItStarted() throws Exception {
        String sleeper = sleeper();

        HookProcess.Finished finished = run(sleeper + " & " + sleeper, Duration.ofMillis(300), new Cancellation());

        assertEquals(HookProcess.Ending.TIMED_OUT, finished.ending());
        assertEquals(false, runs(sleeper), "a process of the hook outlived it");
    }

    @Test
    void aCancelStopsTheHook() throws Exception {
        String sleeper = sleeper();
        Path started = workspace.resolve("started");
        Cancellation cancel = new Cancellation();

        CompletableFuture<HookProcess.Finished> running = CompletableFuture.supplyAsync(() -> {
            try {
                return run("touch started; " + sleeper, Duration.ofSeconds(60), cancel);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(started) && System.nanoTime() < deadline) {
            // Polls, as SandboxContractTest.await does: the hook's file is the only sign that it runs.
            Thread.sleep(20);
        }
        cancel.cancel();

        assertEquals(
                HookProcess.Ending.CANCELLED, running.get(120, TimeUnit.SECONDS).ending());
        assertEquals(false, runs(sleeper));
    }

    @Test
    void outputBeyondTheBoundIsReadAndDropped() throws Exception {
        HookProcess.Finished finished =
                run("head -c 1000000 /dev/zero | tr '\\0' x", Duration.ofSeconds(30), new Cancellation());

        assertEquals(
                List.of(0, HostHookProcess.OUTPUT_LIMIT),
                List.of(finished.exitCode(), finished.stdout().length()));
    }
}
