package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sandbox contract, kept against an engine reached as {@code DOCKER_HOST=ssh://…}: every connection is an ssh
 * running {@code docker system dial-stdio}, and the engine (the second one, with a data root of its own) cannot see
 * this machine's disk, so the workspace is synced.
 */
@Tag("docker")
class SshSandboxContractTest extends SandboxContractTest {

    @Override
    protected Sandbox createSandbox(Path workspace) {
        return DockerAvailable.sandbox(DockerSettings.DEFAULT, workspace, RemoteSsh.env());
    }

    @Test
    void anEngineOverSshGetsTheSyncTransport() {
        assertEquals(WorkspaceTransport.SYNC, sandbox.workspaceTransport());
    }
}
