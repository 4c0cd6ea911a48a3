package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The sandbox contract, kept by the sync transport against an engine that cannot see this machine's disk. */
@Tag("docker")
class RemoteSandboxContractTest extends SandboxContractTest {

    @Override
    protected Sandbox createSandbox(Path workspace) {
        return RemoteDocker.sandbox(workspace, Map.of(), List::of);
    }

    @Test
    void aRemoteEngineGetsTheSyncTransport() {
        assertEquals(WorkspaceTransport.SYNC, sandbox.workspaceTransport());
    }
}
