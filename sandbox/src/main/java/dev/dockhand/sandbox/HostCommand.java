package dev.dockhand.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.HostPrograms;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteStreamHandler;

/**
 * One {@code bash -c} command run on the host to its end, as {@link LocalSandbox} runs the model's commands and
 * {@link HostHookProcess} the user's hooks: under {@code setsid} when the machine has it, with a marker unique to the
 * command in its environment, and every process it started killed when it exits, at its time-out and on cancel (see
 * {@link ProcessTreeKiller} and docs/processes.md). One place, so both kinds of command end the same way.
 */
final class HostCommand {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-exec-timer");
        thread.setDaemon(true);
        return thread;
    });

    /** How the command ended: its exit code, and what killed it, or null when it exited by itself. */
    record Ended(int exitCode, ExecResult.Termination killedBy) {}

    private HostCommand() {}

    static Ended run(
            String script,
            Path directory,
            ExecuteStreamHandler streams,
            Map<String, String> environment,
            boolean setsid,
            Duration timeout,
            Cancellation cancel)
            throws IOException {
        String bash = HostPrograms.require("bash");
        CommandLine command = setsid
                ? new CommandLine(HostPrograms.require("setsid")).addArgument(bash, false)
                : new CommandLine(bash);
        command.addArgument("-c").addArgument(script, false);
        DefaultExecutor executor = DefaultExecutor.builder()
                .setWorkingDirectory(directory.toFile())
                .setExecuteStreamHandler(streams)
                .get();
        executor.setExitValues(null);
        String marker = UUID.randomUUID().toString();
        ProcessTreeKiller killer = new ProcessTreeKiller(setsid, LocalSandbox.MARKER + "=" + marker);
        executor.setProcessDestroyer(killer);
        Map<String, String> variables = new HashMap<>(environment);
        variables.put(LocalSandbox.MARKER, marker);
        ScheduledFuture<?> timer = TIMER.schedule(
                () -> killer.kill(ExecResult.Termination.TIMED_OUT), timeout.toMillis(), TimeUnit.MILLISECONDS);
        int exitCode;
        try (Cancellation.Registration ignored = cancel.onCancel(() -> killer.kill(ExecResult.Termination.CANCELLED))) {
            exitCode = executor.execute(command, variables);
        } catch (ExecuteException e) {
            if (killer.size() == 0) {
                throw new IOException("could not start bash: " + e.getMessage(), e);
            }
            // Raised when output pumps outlive the drain time-out; the exit code is still the command's.
            exitCode = e.getExitValue();
        } finally {
            timer.cancel(false);
            killer.awaitSwept();
        }
        return new Ended(exitCode, killer.killedBy());
    }
}
