package dev.dockhand.core.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.tool.OutputSink;
import java.io.IOException;

/**
 * Runs shell commands for tools. An implementation starts whatever it needs lazily, on the first command, and
 * releases it on {@link #close}. Commands run with stdin closed. Processes end with their command: when {@link #exec}
 * returns, whether the command exited, outlived its time-out or was cancelled, every process it started has been
 * killed, even one that left its process group.
 */
public interface Sandbox extends AutoCloseable {

    /** A short name for displays: {@code none} or {@code docker}. */
    String kind();

    /**
     * Runs {@code bash -c command} and streams its combined stdout and stderr to {@code output} line by line.
     *
     * @throws IOException when the command could not be started at all (no bash, sandbox unreachable)
     */
    ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException;

    @Override
    void close();
}
