package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.HostConfig;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the workspace reaches the sandbox container (the {@link WorkspaceTransport}): mounted ({@link
 * MountedWorkspace}) when the engine runs on this machine, copied in and back ({@link SyncedWorkspace}) when it runs
 * elsewhere. {@link DockerSandbox} asks it for the container's host configuration, tells it when a container has
 * started, and calls it around each command.
 */
interface DockerWorkspace {
    /** The variable that forces a transport: {@code mount}, {@code sync}, or {@code auto} (the default). */
    String TRANSPORT = "DOCKHAND_SANDBOX_TRANSPORT";

    WorkspaceTransport transport();

    /** The host configuration the container is created with. */
    HostConfig hostConfig();

    /** A container has started (the first, or one replacing another): what it needs of the workspace goes in. */
    void started(ContainerFiles files) throws IOException;

    /** Just before a command runs in the container. */
    void beforeCommand(ContainerFiles files) throws IOException;

    /** Just after a command ended in the container; returns sentences for the command's result, if any. */
    List<String> afterCommand(ContainerFiles files);

    /**
     * As the session ends, before the container goes: what {@link #afterCommand} does, its sentences (and those still
     * carried from a cancelled command) worded for the user, since no model reads them any more.
     */
    default List<String> afterSession(ContainerFiles files) {
        return afterCommand(files);
    }

    /**
     * Just after a command was cancelled: what {@link #afterCommand} does, without holding up the cancel (the user
     * pressed Ctrl-C and gets control back at once). The next call waits for it; its sentences go with the next
     * command's result.
     */
    void afterCommandInBackground(ContainerFiles files);

    /** The turns at writing the host's files that the copy back takes, for the file tools to take too. */
    HostWrites hostWrites();

    /** Waits for work still under way ({@link #afterCommandInBackground}); before the container is removed. */
    void settle();

    /**
     * The transport for an engine at {@code dockerHost}: {@code sync} for one reached over the network ({@code
     * tcp://}, {@code ssh://}, {@code http(s)://}), whose disk is not this machine's; {@code mount} for a local socket.
     * {@value #TRANSPORT} in {@code env} overrides the choice.
     *
     * @throws IllegalArgumentException with a sentence for the user when {@value #TRANSPORT} names no transport
     */
    static WorkspaceTransport choose(URI dockerHost, Map<String, String> env) {
        String forced = env.getOrDefault(TRANSPORT, "").strip().toLowerCase(Locale.ROOT);
        switch (forced) {
            case "mount":
                return WorkspaceTransport.MOUNT;
            case "sync":
                return WorkspaceTransport.SYNC;
            case "", "auto":
                break;
            default:
                throw new IllegalArgumentException(TRANSPORT + "=" + env.get(TRANSPORT)
                        + " is not a workspace transport; use mount, sync or auto.");
        }
        String scheme =
                dockerHost.getScheme() == null ? "" : dockerHost.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "tcp", "ssh", "http", "https" -> WorkspaceTransport.SYNC;
            default -> WorkspaceTransport.MOUNT;
        };
    }
}
