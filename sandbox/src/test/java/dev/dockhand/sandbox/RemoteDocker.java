package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.tool.ProtectedLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The second engine that scripts/docker-remote-setup.sh starts: reached over TCP with TLS and a data root of its own,
 * so the sandbox cannot mount the workspace and copies it in and back. Its address and certificates come from
 * DOCKHAND_REMOTE_DOCKER_HOST and DOCKHAND_REMOTE_DOCKER_CERT_PATH (.ci/run sets them); without them the tests skip
 * with the reason, or fail when DOCKHAND_REQUIRE_DOCKER=1.
 */
final class RemoteDocker {
    static final String HOST = "DOCKHAND_REMOTE_DOCKER_HOST";
    static final String CERT_PATH = "DOCKHAND_REMOTE_DOCKER_CERT_PATH";

    private RemoteDocker() {}

    /** The variables a run against the remote engine has: DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH. */
    static Map<String, String> env() {
        String host = System.getenv(HOST);
        String certs = System.getenv(CERT_PATH);
        if (host == null || host.isBlank() || certs == null || certs.isBlank()) {
            String reason = HOST + " and " + CERT_PATH + " are not set (scripts/docker-remote-setup.sh starts the"
                    + " engine and writes them)";
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + reason);
            }
            assumeTrue(false, "Remote-engine tests skipped: " + reason);
        }
        Map<String, String> env = new HashMap<>();
        env.put("DOCKER_HOST", host);
        env.put("DOCKER_TLS_VERIFY", "1");
        env.put("DOCKER_CERT_PATH", certs);
        return env;
    }

    static DockerSandbox sandbox(
            Path workspace, Map<String, String> extraEnv, Supplier<List<ProtectedLayout>> layouts) {
        Map<String, String> env = env();
        env.putAll(extraEnv);
        return DockerAvailable.sandbox(DockerSettings.DEFAULT, workspace, env, layouts);
    }
}
