package dev.dockhand.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.hooks.HookProcess;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.exec.PumpStreamHandler;

/**
 * Runs hook commands on the host, outside any sandbox: they are the user's own code, configured in their settings (or
 * a trusted folder's). Each runs as {@link LocalSandbox} runs a command: {@code bash -c} under {@code setsid} with a
 * marker in its environment, every process it started killed when it exits, at its time-out and on cancel (see
 * {@link ProcessTreeKiller} and docs/processes.md). Its stdin is the hook's JSON input, then end-of-file; each of its
 * output streams is kept up to {@link #OUTPUT_LIMIT} bytes and the rest read and dropped, so a hook that prints
 * without end cannot fill the memory.
 */
public final class HostHookProcess implements HookProcess {
    /** The most of each output stream that is kept. */
    static final int OUTPUT_LIMIT = 64 * 1024;

    /** After the hook exits and what it left behind is killed, how long its last output may take to be read. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    private final Map<String, String> environment;
    private final boolean setsid;

    /** @param environment the variables every hook inherits (the user's environment) */
    public HostHookProcess(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        this.setsid = Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"));
    }

    @Override
    public Finished run(Request request, Cancellation cancel) throws IOException {
        Bounded stdout = new Bounded();
        Bounded stderr = new Bounded();
        PumpStreamHandler streams = new PumpStreamHandler(
                stdout, stderr, new ByteArrayInputStream(request.input().getBytes(StandardCharsets.UTF_8)));
        streams.setStopTimeout(DRAIN_TIMEOUT);
        Map<String, String> variables = new HashMap<>(environment);
        variables.putAll(request.environment());
        HostCommand.Ended ended = HostCommand.run(
                request.command(), request.directory(), streams, variables, setsid, request.timeout(), cancel);
        Ending ending =
                switch (ended.killedBy() == null ? ExecResult.Termination.EXITED : ended.killedBy()) {
                    case TIMED_OUT -> Ending.TIMED_OUT;
                    case CANCELLED -> Ending.CANCELLED;
                    default -> Ending.EXITED;
                };
        return new Finished(ended.exitCode(), stdout.text(), stderr.text(), ending);
    }

    /** Keeps the first {@link #OUTPUT_LIMIT} bytes written to it and drops the rest. */
    private static final class Bounded extends OutputStream {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (kept.size() < OUTPUT_LIMIT) {
                kept.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            int room = Math.min(length, OUTPUT_LIMIT - kept.size());
            if (room > 0) {
                kept.write(bytes, offset, room);
            }
        }

        synchronized String text() {
            return kept.toString(StandardCharsets.UTF_8);
        }
    }
}
