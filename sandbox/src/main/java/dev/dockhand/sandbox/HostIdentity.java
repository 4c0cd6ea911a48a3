package dev.dockhand.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Who this process is on the host, read from /proc without spawning {@code id} or resolving DNS. */
final class HostIdentity {
    private HostIdentity() {}

    static ContainerSpec.Owner current() {
        ProcessHandle self = ProcessHandle.current();
        long started =
                self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
        return new ContainerSpec.Owner(id("Uid:"), id("Gid:"), self.pid(), started, hostname());
    }

    /** The effective id from /proc/self/status; 0 where there is no /proc. */
    private static int id(String field) {
        try {
            List<String> status = Files.readAllLines(Path.of("/proc/self/status"));
            for (String line : status) {
                if (line.startsWith(field)) {
                    String[] parts = line.substring(field.length()).trim().split("\\s+");
                    return Integer.parseInt(parts[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: the container runs as its image's user.
        }
        return 0;
    }

    static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            String env = System.getenv("HOSTNAME");
            return env == null ? "unknown" : env;
        }
    }

    /** Whether the process that owned a container is still running (same pid and same start time). */
    static boolean alive(long pid, long startedMillis) {
        return ProcessHandle.of(pid)
                .flatMap(handle -> handle.info().startInstant())
                .map(start -> start.toEpochMilli() == startedMillis)
                .orElse(false);
    }
}
