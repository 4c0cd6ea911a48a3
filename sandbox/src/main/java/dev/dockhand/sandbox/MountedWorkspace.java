package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.HostConfig;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import java.util.List;

/**
 * The workspace mounted into the container at its own path, read-write, with the protected paths mounted read-only
 * over it (see {@link ProtectedMounts}): what a command writes is on the host as it writes it, so there is nothing to
 * do around a command.
 */
final class MountedWorkspace implements DockerWorkspace {
    private final ContainerSpec spec;
    private final ProtectedMounts protectedMounts;

    MountedWorkspace(ContainerSpec spec, ProtectedMounts protectedMounts) {
        this.spec = spec;
        this.protectedMounts = protectedMounts;
    }

    @Override
    public WorkspaceTransport transport() {
        return WorkspaceTransport.MOUNT;
    }

    @Override
    public HostConfig hostConfig() {
        return spec.hostConfig(protectedMounts.mounts());
    }

    @Override
    public void started(ContainerFiles files) {
        // The mounts are the workspace.
    }

    @Override
    public void beforeCommand(ContainerFiles files) {
        // Nothing to copy: the container sees the host's files.
    }

    @Override
    public List<String> afterCommand(ContainerFiles files) {
        return List.of();
    }

    @Override
    public void afterCommandInBackground(ContainerFiles files) {
        // Nothing to copy back.
    }

    @Override
    public HostWrites hostWrites() {
        // The sandbox never writes the host's files itself.
        return HostWrites.NONE;
    }

    @Override
    public void settle() {
        // Nothing is ever under way.
    }
}
