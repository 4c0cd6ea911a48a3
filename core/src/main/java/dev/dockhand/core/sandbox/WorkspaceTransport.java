package dev.dockhand.core.sandbox;

/**
 * How the workspace's files reach the commands of a sandbox, and the commands' changes reach the workspace. Either
 * way the file tools, which run on the host, and the commands see the same files at every command's start and end.
 */
public enum WorkspaceTransport {
    /**
     * The commands work on the workspace's own files: they run on the host, or in a container that has the
     * workspace mounted. What a command writes is on the host the moment it is written.
     */
    MOUNT,
    /**
     * The commands work on a copy, in a container on an engine that cannot see the host's disk (a remote Docker
     * engine): the workspace is copied in when the container starts, what the host changed is copied in before each
     * command, and what the command changed is copied back after it, before its result is returned.
     */
    SYNC
}
