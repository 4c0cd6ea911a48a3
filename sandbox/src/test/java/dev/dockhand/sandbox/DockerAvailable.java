package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Decides whether Docker tests run: skipped, with the reason shown, when no engine or image is there; failed instead
 * when DOCKHAND_REQUIRE_DOCKER=1 (CI sets it, so a broken Docker set-up cannot pass as a skip).
 */
final class DockerAvailable {
    private DockerAvailable() {}

    static DockerSandbox sandbox(DockerSettings settings, Path workspace, Map<String, String> hostEnv) {
        DockerSandbox sandbox = DockerSandbox.connect(settings, workspace, List.of(), hostEnv);
        try {
            sandbox.preflight();
        } catch (SandboxUnavailableException e) {
            sandbox.close();
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + e.getMessage(), e);
            }
            assumeTrue(false, "Docker tests skipped: " + e.getMessage());
        }
        return sandbox;
    }
}
