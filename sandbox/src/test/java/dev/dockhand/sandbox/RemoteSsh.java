package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The private sshd that scripts/ssh-remote-setup.sh starts in front of the second engine
 * (scripts/docker-remote-setup.sh): DOCKHAND_REMOTE_SSH_HOST is its {@code ssh://} address and DOCKHAND_REMOTE_SSH_DIR
 * its folder, whose {@code bin/ssh} runs the system ssh with the folder's own client config, key and known hosts (so
 * no test reads or writes ~/.ssh). .ci/run sets both; without them the tests skip with the reason, or fail when
 * DOCKHAND_REQUIRE_DOCKER=1.
 */
final class RemoteSsh {
    static final String HOST = "DOCKHAND_REMOTE_SSH_HOST";
    static final String DIR = "DOCKHAND_REMOTE_SSH_DIR";

    private RemoteSsh() {}

    /** The {@code ssh://user@127.0.0.1:port} address of the private sshd. */
    static String host() {
        require();
        return System.getenv(HOST);
    }

    /** The set-up's folder: ssh_config, the client keys, known_hosts, bin/ssh. */
    static Path dir() {
        require();
        return Path.of(System.getenv(DIR));
    }

    /**
     * This process's variables, without those naming another engine, with {@code dockerHost} as DOCKER_HOST and
     * {@code bin} first on the PATH (a folder whose {@code ssh} wraps the set-up's).
     */
    static Map<String, String> env(String dockerHost, Path bin) {
        Map<String, String> env = env();
        env.put("DOCKER_HOST", dockerHost);
        env.put("PATH", bin + ":" + env.get("PATH"));
        return env;
    }

    /**
     * This process's variables, without those naming another engine, with DOCKER_HOST the private sshd's address
     * and the set-up's ssh first on the PATH.
     */
    static Map<String, String> env() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(name -> name.startsWith("DOCKER_") || name.startsWith("DOCKHAND_SANDBOX_"));
        env.put("DOCKER_HOST", host());
        env.put("PATH", dir().resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        return env;
    }

    private static void require() {
        String host = System.getenv(HOST);
        String dir = System.getenv(DIR);
        if (host == null || host.isBlank() || dir == null || dir.isBlank()) {
            String reason = HOST + " and " + DIR + " are not set (scripts/ssh-remote-setup.sh starts the sshd and"
                    + " writes them)";
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + reason);
            }
            assumeTrue(false, "ssh:// engine tests skipped: " + reason);
        }
    }
}
