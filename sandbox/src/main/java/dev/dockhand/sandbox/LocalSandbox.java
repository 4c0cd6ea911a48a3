package dev.dockhand.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.OutputSink;
import java.io.IOException;
import java.nio.file.Files;
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
import org.apache.commons.exec.PumpStreamHandler;

/**
 * Runs commands directly on the host with commons-exec ({@code --sandbox none}): no confinement beyond the working
 * directory. stdin is closed, so a command that waits for input fails at once instead of hanging. Each command runs in
 * a process group of its own with a marker in its environment, and every process it started is killed when its main
 * process exits, at the time-out and on cancel (see {@link ProcessTreeKiller}).
 */
public final class LocalSandbox implements Sandbox {
    /** After the command exits, how long to wait for output still held by its background children. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    /** The variable whose value, unique per command, marks every process the command starts. */
    static final String MARKER = "DOCKHAND_EXEC";

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-exec-timer");
        thread.setDaemon(true);
        return thread;
    });

    private final Map<String, String> environment;
    private final boolean setsid;

    /** @param environment the variables commands see; the CLI leaves out API keys */
    public LocalSandbox(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        this.setsid = Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"));
    }

    @Override
    public String kind() {
        return "none";
    }

    @Override
    public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
        CommandLine command = setsid ? new CommandLine("setsid").addArgument("bash") : new CommandLine("bash");
        command.addArgument("-c").addArgument(request.command(), false);
        // One splitter per stream, so a partial stdout line never swallows a stderr line; one lock for the sink.
        LineSplitter.Pair lines = LineSplitter.pair(output);
        LineSplitter stdout = lines.stdout();
        LineSplitter stderr = lines.stderr();
        PumpStreamHandler streams = new PumpStreamHandler(stdout, stderr);
        streams.setStopTimeout(DRAIN_TIMEOUT);
        DefaultExecutor executor = DefaultExecutor.builder()
                .setWorkingDirectory(request.directory())
                .setExecuteStreamHandler(streams)
                .get();
        executor.setExitValues(null);
        String marker = UUID.randomUUID().toString();
        ProcessTreeKiller killer = new ProcessTreeKiller(setsid, MARKER + "=" + marker);
        executor.setProcessDestroyer(killer);
        ScheduledFuture<?> timeout = TIMER.schedule(
                () -> killer.kill(ExecResult.Termination.TIMED_OUT),
                request.timeout().toMillis(),
                TimeUnit.MILLISECONDS);
        int exitCode;
        try (Cancellation.Registration ignored = cancel.onCancel(() -> killer.kill(ExecResult.Termination.CANCELLED))) {
            exitCode = executor.execute(command, environmentWith(marker));
        } catch (ExecuteException e) {
            if (killer.size() == 0) {
                throw new IOException("could not start bash: " + e.getMessage(), e);
            }
            // Raised when output pumps outlive the drain time-out; the exit code is still the command's.
            exitCode = e.getExitValue();
        } finally {
            timeout.cancel(false);
            killer.awaitSwept();
            stdout.flush();
            stderr.flush();
        }
        ExecResult.Termination killedBy = killer.killedBy();
        return killedBy == null ? ExecResult.exited(exitCode) : new ExecResult(exitCode, killedBy);
    }

    private Map<String, String> environmentWith(String marker) {
        Map<String, String> withMarker = new HashMap<>(environment);
        withMarker.put(MARKER, marker);
        return withMarker;
    }

    @Override
    public void close() {
        // Nothing is held between commands.
    }
}
