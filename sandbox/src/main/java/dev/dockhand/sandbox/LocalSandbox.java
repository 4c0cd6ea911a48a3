package dev.dockhand.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.HostPrograms;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.OutputSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * Runs commands directly on the host with commons-exec ({@code --sandbox none}): no confinement beyond the working
 * directory. stdin is closed, so a command that waits for input fails at once instead of hanging. Each command runs in
 * a process group of its own with a marker in its environment, and every process it started is killed when its main
 * process exits, at the time-out and on cancel (see {@link ProcessTreeKiller}). Background commands ({@link #start})
 * run the same way, their output going straight to their file, until they exit, are killed, or {@link #close}.
 */
public final class LocalSandbox implements Sandbox {
    /** After the command exits and what it left behind is killed, how long its last output may take to be read. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    /** The variable whose value, unique per command, marks every process the command starts. */
    static final String MARKER = "DOCKHAND_EXEC";
    /** The exit code of a process killed by SIGKILL, for one that has not yet been seen to exit. */
    private static final int KILLED = 137;

    private final Map<String, String> environment;
    private final boolean setsid;
    private final BackgroundJobs jobs = new BackgroundJobs();

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
        // One splitter per stream, so a partial stdout line never swallows a stderr line; one lock for the sink.
        LineSplitter.Pair lines = LineSplitter.pair(output);
        LineSplitter stdout = lines.stdout();
        LineSplitter stderr = lines.stderr();
        PumpStreamHandler streams = new PumpStreamHandler(stdout, stderr);
        streams.setStopTimeout(DRAIN_TIMEOUT);
        HostCommand.Ended ended;
        try {
            ended = HostCommand.run(
                    request.command(), request.directory(), streams, environment, setsid, request.timeout(), cancel);
        } finally {
            stdout.flush();
            stderr.flush();
        }
        return ended.killedBy() == null
                ? ExecResult.exited(ended.exitCode())
                : new ExecResult(ended.exitCode(), ended.killedBy());
    }

    @Override
    public BackgroundProcess start(String command, Path directory, Path outputFolder) throws IOException {
        return jobs.start(command, outputFolder, outputFile -> launch(command, directory, outputFile));
    }

    /** Starts a background command whose output the OS appends to {@code outputFile}: no thread of ours pumps it. */
    private BackgroundJobs.Control launch(String command, Path directory, Path outputFile) throws IOException {
        List<String> line = new ArrayList<>();
        if (setsid) {
            line.add(HostPrograms.require("setsid"));
        }
        line.addAll(List.of(HostPrograms.require("bash"), "-c", command));
        String marker = UUID.randomUUID().toString();
        ProcessBuilder builder = new ProcessBuilder(line)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
        builder.environment().clear();
        builder.environment().putAll(environmentWith(marker));
        Process process = builder.start();
        // stdin closed, as for exec: a command that reads gets end-of-file at once.
        process.getOutputStream().close();
        ProcessTreeKiller killer = new ProcessTreeKiller(setsid, MARKER + "=" + marker);
        killer.add(process);
        return new Started(process, killer);
    }

    /** A background command on the host: its main process, and the killer that ends all of them. */
    private record Started(Process process, ProcessTreeKiller killer) implements BackgroundJobs.Control {
        @Override
        public Optional<ExecResult> poll() {
            if (!killer.swept()) {
                return Optional.empty();
            }
            ExecResult.Termination killedBy = killer.killedBy();
            return Optional.of(
                    killedBy == null
                            ? ExecResult.exited(process.exitValue())
                            : new ExecResult(process.exitValue(), killedBy));
        }

        @Override
        public ExecResult kill() {
            killer.kill(ExecResult.Termination.CANCELLED);
            // The sweep runs once the main process has exited, so after it the exit code is there.
            killer.awaitSwept();
            return new ExecResult(process.isAlive() ? KILLED : process.exitValue(), ExecResult.Termination.CANCELLED);
        }
    }

    @Override
    public List<BackgroundProcess> background() {
        return jobs.list();
    }

    private Map<String, String> environmentWith(String marker) {
        Map<String, String> withMarker = new HashMap<>(environment);
        withMarker.put(MARKER, marker);
        return withMarker;
    }

    @Override
    public void close() {
        jobs.killAll();
    }
}
