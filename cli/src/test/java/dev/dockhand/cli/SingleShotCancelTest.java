package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.config.Headless;
import dev.dockhand.cli.config.ModelChoice;
import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.headless.SingleShot;
import dev.dockhand.core.model.Provider;
import dev.dockhand.core.model.RetryPolicy;
import dev.dockhand.core.model.Timeouts;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.sandbox.DockerSettings;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class SingleShotCancelTest {
    @TempDir
    Path workspace;

    @Test
    void cancellingARunningCommandExits130AndKillsIt() throws Exception {
        try (ScriptedModel model = new ScriptedModel()) {
            model.enqueue(calls(toolCall("s1", "run_shell_command", "{\"command\":\"" + command() + "\"}")));
            RunOptions options = new RunOptions(
                    java.util.Optional.of("go"),
                    new ModelChoice(
                            Provider.OPENAI, "m", model.baseUrl(), "k", Timeouts.DEFAULT, RetryPolicy.DEFAULT, 1024),
                    ApprovalMode.YOLO,
                    10,
                    RunOptions.SandboxKind.NONE,
                    DockerSettings.DEFAULT,
                    List.of(),
                    OutputLimits.DEFAULT,
                    dev.dockhand.core.agent.ContextPolicy.DEFAULT,
                    Headless.DEFAULT,
                    java.util.Optional.empty(),
                    dev.dockhand.core.scheduler.ApprovalRules.DEFAULT,
                    List.of(),
                    java.util.Set.of(),
                    "OPENAI_API_KEY",
                    java.util.Optional.empty(),
                    Pricing.builtIn(),
                    java.util.OptionalDouble.empty(),
                    java.util.Optional.empty(),
                    false,
                    Map.of(),
                    dev.dockhand.core.hooks.HookDefinitions.NONE,
                    false,
                    dev.dockhand.cli.config.RedactionSettings.DEFAULT);
            CliEnvironment environment = new CliEnvironment(
                    Map.of("PATH", System.getenv("PATH")),
                    workspace,
                    workspace.resolve(".home"),
                    InputStream.nullInputStream(),
                    true);
            StringWriter err = new StringWriter();
            SingleShot run =
                    new SingleShot(options, environment, new PrintWriter(new StringWriter()), new PrintWriter(err));

            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(run::run);
            // Waits for the command to start (the five minutes only keep a hung run from hanging the build).
            long backstop = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!Files.exists(workspace.resolve("started")) && !exit.isDone() && System.nanoTime() < backstop) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(workspace.resolve("started")), "the command should have started");
            run.cancellation().cancel();

            assertEquals(ExitCodes.INTERRUPTED, exit.get(2, TimeUnit.MINUTES));
            assertTrue(err.toString().endsWith("dockhand: cancelled.\n"), err.toString());
            assertEquals(1, model.requestCount());
            assertNoSleeperLeft();
            assertTrue(!Files.exists(workspace.resolve("finished")));
        }
    }

    /**
     * Ctrl-C in a real process: the SIGINT handler must be installed, or the JVM exits 130 on its own, without the
     * summary line and without killing the command it started.
     */
    @Test
    void sigintToARealProcessCancelsTheRunWithItsOwnSummary() throws Exception {
        try (CliHarness cli = new CliHarness(workspace)) {
            cli.model.enqueue(calls(toolCall("s1", "run_shell_command", "{\"command\":\"" + command() + "\"}")));
            Path stderr = workspace.resolve("child.err");
            Process child = cli.start(stderr, "--yolo", "-p", "go");
            cli.awaitFile("started", child, stderr);

            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start();
            assertEquals(0, kill.waitFor());

            assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the run should end after Ctrl-C");
            assertEquals(ExitCodes.INTERRUPTED, child.exitValue());
            String err = Files.readString(stderr);
            assertTrue(err.endsWith("dockhand: cancelled.\n"), err);
            assertNoSleeperLeft();
            assertTrue(!Files.exists(cli.workspace.resolve("finished")));
        }
    }

    /** A sleep no other process on this machine runs, so that finding it finds this test's. */
    private final String sleeper =
            "sleep 100." + java.util.concurrent.ThreadLocalRandom.current().nextInt(1_000_000);

    private String command() {
        return "touch started; " + sleeper + "; touch finished";
    }

    /**
     * The command was killed, not just left behind: its sleep is gone (waited for, as a killed process takes a moment
     * to leave the process table), so nothing is left to create "finished" later.
     */
    private void assertNoSleeperLeft() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ProcessHandle.allProcesses()
                .anyMatch(process -> process.info().commandLine().orElse("").contains(sleeper))) {
            assertTrue(System.nanoTime() < deadline, "the command's sleep outlived the run");
            Thread.sleep(20);
        }
    }
}
