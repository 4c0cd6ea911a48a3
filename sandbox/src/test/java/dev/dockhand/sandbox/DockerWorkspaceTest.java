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
    void anSshAddressThatSshWouldReadAsAnOptionStopsBeforeTheModelIsCalled() throws Exception {
        DockerSandbox sandbox = DockerSandbox.connect(
                DockerSettings.DEFAULT,
                Path.of("/nonexistent-workspace"),
                List.of(),
                Map.of("DOCKER_HOST", "ssh://-oProxyCommand=calc", "PATH", "/usr/bin:/bin"));

        SandboxUnavailableException refused = assertThrows(SandboxUnavailableException.class, sandbox::preflight);
        sandbox.close();

        assertEquals(
                "DOCKER_HOST=ssh://-oProxyCommand=calc has a host or user starting with '-', which ssh would read as"
                        + " an option; write it as ssh://[user@]host[:port] and put other ssh settings in"
                        + " ~/.ssh/config.",
                refused.getMessage());
    }
}
