package dev.dockhand.core.sandbox;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.tool.OutputSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs shell commands for tools. An implementation starts whatever it needs lazily, on the first command, and
 * releases it on {@link #close}. Commands run with stdin closed. Processes end with their command: when {@link #exec}
 * returns, whether the command exited, outlived its time-out or was cancelled, every process it started has been
 * killed, even one that left its process group. A command that must outlive its call (a server, a watcher) is
 * started with {@link #start} instead, and runs until it exits, is killed, or the sandbox closes.
 */
public interface Sandbox extends AutoCloseable {

    /** A short name for displays: {@code none} or {@code docker}. */
    String kind();

    /** How the workspace reaches the commands; {@link WorkspaceTransport#MOUNT} unless the sandbox says otherwise. */
    default WorkspaceTransport workspaceTransport() {
        return WorkspaceTransport.MOUNT;
    }

    /**
     * Runs {@code bash -c command} and streams its combined stdout and stderr to {@code output} line by line.
     *
     * @throws IOException when the command could not be started at all (no bash, sandbox unreachable)
     */
    ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException;

    /**
     * Starts {@code bash -c command} in {@code directory} and returns at once, without waiting for it to end. It gets
     * the next id ({@code bg-1}, {@code bg-2}, …), and its combined output goes to a new file named after the id in
     * {@code outputFolder} (created if missing); the file name is the sandbox's, never anything from the command.
     *
     * @throws IOException when the command could not be started at all
     */
    BackgroundProcess start(String command, Path directory, Path outputFolder) throws IOException;

    /**
     * Starts {@code command} (a program and its arguments, run without a shell) in {@code directory}, with
     * {@code environment} added to the sandbox's own, its stdin, stdout and stderr attached to the returned process:
     * for a program that talks over its standard streams, such as an MCP server. It runs until it exits, is destroyed,
     * or the sandbox closes; destroying it kills every process it started. Only a sandbox that confines what it runs
     * starts one: the others refuse, so that a program meant to be confined never runs unconfined instead.
     *
     * @throws IOException when it could not be started (the sandbox unreachable)
     * @throws UnsupportedOperationException when this sandbox confines nothing ({@code --sandbox none})
     */
    default Process startAttached(List<String> command, Map<String, String> environment, Path directory)
            throws IOException {
        throw new UnsupportedOperationException(
                "the " + kind() + " sandbox confines nothing, so it starts no program to be confined");
    }

    /**
     * With the {@link WorkspaceTransport#SYNC} transport, copies into the sandbox what the host changed in the
     * workspace since the last sync, as is done before each command: for a program started with {@link
     * #startAttached} (an MCP server) that is about to be asked to work on the workspace. Nothing to do when the
     * sandbox works on the host's own files.
     *
     * @throws IOException when the files could not be copied in
     */
    default void syncIn() throws IOException {}

    /**
     * With the {@link WorkspaceTransport#SYNC} transport, copies back to the host what changed in the sandbox's copy of
     * the workspace since the last sync, whatever wrote it (a program started with {@link #startAttached}, a
     * background command), by the same rules as after a command; returns sentences for the model, if any. Nothing to
     * do when the sandbox works on the host's own files.
     */
    default List<String> syncBack() {
        return List.of();
    }

    /** The turns at writing the host's workspace files that the file tools take, and the sandbox's copy back too. */
    default HostWrites hostWrites() {
        return HostWrites.NONE;
    }

    /** The commands {@link #start} started, running or ended, in the order they were started. */
    List<BackgroundProcess> background();

    /** Releases what the sandbox holds; kills the background commands still running. */
    @Override
    void close();

    /**
     * Closes the sandbox as {@link #close} does and returns what the user must learn of it, one sentence each: with
     * the {@link WorkspaceTransport#SYNC} transport, what the last copy back left in the sandbox (a path the user
     * changed too, a protected path, a folder kept for files that were never copied in); and the protected paths the
     * last clean-up could not put back, remove or check. No model is there to tell any more: the caller shows them to
     * the user.
     */
    default List<String> closeAndReport() {
        close();
        return List.of();
    }
}
