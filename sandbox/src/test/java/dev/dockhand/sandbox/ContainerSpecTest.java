package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerSpecTest {
    private final ContainerSpec.Owner owner = new ContainerSpec.Owner(1000, 1001, 4242, 1700000000000L, "devbox");

    @Test
    void mountsTheWorkspaceAtTheSamePathAndRunsAsTheHostUser() {
        ContainerSpec spec = ContainerSpec.of(
                DockerSettings.DEFAULT, Path.of("/home/u/project"), List.of(Path.of("/home/u/lib")), Map.of(), owner);

        assertEquals(
                new ContainerSpec(
                        "dockhand-sandbox:latest",
                        "1000:1001",
                        "/home/u/project",
                        List.of(Path.of("/home/u/project"), Path.of("/home/u/lib")),
                        List.of("HOME=/tmp"),
                        Map.of(
                                ContainerSpec.LABEL,
                                "true",
                                ContainerSpec.OWNER_PID,
                                "4242",
                                ContainerSpec.OWNER_STARTED,
                                "1700000000000",
                                ContainerSpec.OWNER_HOST,
                                "devbox"),
                        DockerSettings.DEFAULT),
                spec);
    }

    @Test
    void confinesTheContainer() {
        HostConfig host = ContainerSpec.of(DockerSettings.DEFAULT, Path.of("/w"), List.of(), Map.of(), owner)
                .hostConfig();

        assertEquals(List.of(new Bind("/w", new Volume("/w"), AccessMode.rw)), List.of(host.getBinds()));
        assertEquals("none", host.getNetworkMode());
        assertEquals(2L * 1024 * 1024 * 1024, host.getMemory());
        assertEquals(2L * 1024 * 1024 * 1024, host.getMemorySwap());
        assertEquals(2_000_000_000L, host.getNanoCPUs());
        assertEquals(512L, host.getPidsLimit());
        assertEquals(List.of(Capability.ALL), List.of(host.getCapDrop()));
        assertEquals(List.of("no-new-privileges"), host.getSecurityOpts());
        assertEquals(Map.of("/tmp", "rw,exec,nosuid,nodev,size=512m"), host.getTmpFs());
        assertEquals(true, host.getInit());
    }

    @Test
    void passesOnlyAllowlistedVariables() {
        DockerSettings settings =
                new DockerSettings("img", "bridge", 256L * 1024 * 1024, 1.5, 100, List.of("GREETING", "ABSENT"));

        ContainerSpec spec = ContainerSpec.of(
                settings, Path.of("/w"), List.of(), Map.of("GREETING", "hi", "OPENAI_API_KEY", "sk-secret"), owner);

        assertEquals(List.of("HOME=/tmp", "GREETING=hi"), spec.env());
        assertEquals("bridge", spec.hostConfig().getNetworkMode());
        assertEquals(1_500_000_000L, spec.hostConfig().getNanoCPUs());
    }

    @Test
    void parsesSizes() {
        assertEquals(512L * 1024 * 1024, DockerSettings.parseSize("512m"));
        assertEquals(2L * 1024 * 1024 * 1024, DockerSettings.parseSize("2G"));
        assertEquals(1024L, DockerSettings.parseSize("1024"));
        assertEquals(null, DockerSettings.parseSize("lots"));
    }
}
