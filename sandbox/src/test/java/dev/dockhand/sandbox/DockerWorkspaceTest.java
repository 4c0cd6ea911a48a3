package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.sandbox.WorkspaceTransport;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DockerWorkspaceTest {

    @Test
    void aLocalSocketMountsAndAnEngineOverTheNetworkSyncs() {
        assertEquals(
                WorkspaceTransport.MOUNT, DockerWorkspace.choose(URI.create("unix:///var/run/docker.sock"), Map.of()));
        assertEquals(WorkspaceTransport.SYNC, DockerWorkspace.choose(URI.create("tcp://10.0.0.5:2376"), Map.of()));
        assertEquals(WorkspaceTransport.SYNC, DockerWorkspace.choose(URI.create("ssh://ci@builder"), Map.of()));
    }

    @Test
    void theVariableForcesEitherTransportAndRefusesAnyOther() {
        URI local = URI.create("unix:///var/run/docker.sock");
        URI remote = URI.create("tcp://10.0.0.5:2376");

        assertEquals(WorkspaceTransport.SYNC, DockerWorkspace.choose(local, Map.of(DockerWorkspace.TRANSPORT, "sync")));
        assertEquals(
                WorkspaceTransport.MOUNT, DockerWorkspace.choose(remote, Map.of(DockerWorkspace.TRANSPORT, "Mount")));
        assertEquals(
                WorkspaceTransport.SYNC, DockerWorkspace.choose(remote, Map.of(DockerWorkspace.TRANSPORT, "auto")));
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> DockerWorkspace.choose(local, Map.of(DockerWorkspace.TRANSPORT, "rsync")));
        assertEquals(
                "DOCKHAND_SANDBOX_TRANSPORT=rsync is not a workspace transport; use mount, sync or auto.",
                refused.getMessage());
    }

    @Test
    void theSyncLimitsAreSizesOrASentenceSaysWhatIsWrong() {
        assertEquals(SyncLimits.DEFAULT, SyncLimits.from(Map.of()));
        assertEquals(
                new SyncLimits(50L << 20, 4L << 30),
                SyncLimits.from(Map.of(SyncLimits.MAX_FILE, "50m", SyncLimits.MAX_TOTAL, "4g")));
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> SyncLimits.from(Map.of(SyncLimits.MAX_FILE, "lots")));
        assertEquals(
                "DOCKHAND_SANDBOX_SYNC_MAX_FILE=lots is not a size; write it like 50m or 4g.", refused.getMessage());
    }

    @Test
    void anSshEngineStopsBeforeTheModelIsCalledSayingHowToForwardItsSocket() throws Exception {
        DockerSandbox sandbox = DockerSandbox.connect(
                DockerSettings.DEFAULT,
                Path.of("/nonexistent-workspace"),
                List.of(),
                Map.of("DOCKER_HOST", "ssh://ci@builder"));

        SandboxUnavailableException refused = assertThrows(SandboxUnavailableException.class, sandbox::preflight);
        sandbox.close();

        assertEquals(
                "DOCKER_HOST=ssh://ci@builder is not supported yet: forward the engine's socket with ssh -nNT -L"
                        + " /tmp/dockhand-docker.sock:/var/run/docker.sock HOST and run with"
                        + " DOCKER_HOST=unix:///tmp/dockhand-docker.sock DOCKHAND_SANDBOX_TRANSPORT=sync.",
                refused.getMessage());
    }
}
