package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.Volume;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the sandbox container is created with, computed without a daemon so it can be tested as a value.
 * The workspace (and any included folder) is mounted read-write at the same absolute path as on the host, so paths
 * in output mean the same on both sides; nothing else of the host is mounted, the Docker socket least of all.
 */
record ContainerSpec(
        String image,
        String user,
        String workingDir,
        List<Path> mounts,
        List<String> env,
        Map<String, String> labels,
        DockerSettings settings) {

    static final String LABEL = "dev.dockhand.sandbox";
    static final String OWNER_PID = "dev.dockhand.owner-pid";
    static final String OWNER_STARTED = "dev.dockhand.owner-started";
    static final String OWNER_HOST = "dev.dockhand.owner-host";
    private static final Map<String, String> TMP = Map.of("/tmp", "rw,exec,nosuid,nodev,size=512m");

    /** The user's uid, then gid. */
    int[] ids() {
        String[] parts = user.split(":");
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }

    /** Who is asking: the host user (files the model creates are theirs) and the JVM that owns the container. */
    record Owner(int uid, int gid, long pid, long startedMillis, String host) {}

    static ContainerSpec of(
            DockerSettings settings, Path workspace, List<Path> extraRoots, Map<String, String> hostEnv, Owner owner) {
        List<Path> mounts = new ArrayList<>();
        mounts.add(workspace);
        mounts.addAll(extraRoots);
        List<String> env = new ArrayList<>();
        // The user may have no entry in the image's /etc/passwd; give tools a HOME they can write to.
        env.add("HOME=/tmp");
        for (String name : settings.envAllowlist()) {
            String value = hostEnv.get(name);
            if (value != null) {
                env.add(name + "=" + value);
            }
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL, "true");
        labels.put(OWNER_PID, Long.toString(owner.pid()));
        labels.put(OWNER_STARTED, Long.toString(owner.startedMillis()));
        labels.put(OWNER_HOST, owner.host());
        return new ContainerSpec(
                settings.image(),
                owner.uid() + ":" + owner.gid(),
                workspace.toString(),
                List.copyOf(mounts),
                List.copyOf(env),
                Map.copyOf(labels),
                settings);
    }

    HostConfig hostConfig() {
        return hostConfig(List.of());
    }

    /**
     * The host configuration for the sync transport (see {@link SyncedWorkspace}): no mount of the host at all. The
     * private {@code /tmp} is left out when a root lies under it, since the engine copies files into the container's
     * own file system, under a {@code tmpfs} mounted there.
     */
    HostConfig syncedHostConfig() {
        HostConfig config = limits(HostConfig.newHostConfig());
        if (mounts.stream().noneMatch(mount -> mount.startsWith("/tmp"))) {
            config.withTmpFs(TMP);
        }
        return config;
    }

    /** The host configuration, with {@code protectedMounts} (see {@link ProtectedMounts}) over the workspace. */
    HostConfig hostConfig(List<Mount> protectedMounts) {
        List<Bind> binds = new ArrayList<>();
        for (Path mount : mounts) {
            binds.add(new Bind(mount.toString(), new Volume(mount.toString()), AccessMode.rw));
        }
        return limits(HostConfig.newHostConfig().withBinds(binds).withMounts(protectedMounts))
                .withTmpFs(TMP);
    }

    /** What confines the container, whatever reaches the workspace: limits, no capabilities, an init. */
    private HostConfig limits(HostConfig config) {
        return config.withNetworkMode(settings.network())
                .withMemory(settings.memoryBytes())
                .withMemorySwap(settings.memoryBytes())
                .withNanoCPUs((long) (settings.cpus() * 1_000_000_000L))
                .withPidsLimit(settings.pids())
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withInit(true);
    }
}
