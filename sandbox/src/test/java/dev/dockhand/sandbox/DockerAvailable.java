package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.tool.ProtectedLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Decides whether Docker tests run: skipped, with the reason shown, when no engine or image is there; failed instead
 * when DOCKHAND_REQUIRE_DOCKER=1 (CI sets it, so a broken Docker set-up cannot pass as a skip).
 */
final class DockerAvailable {
    private DockerAvailable() {}

    static DockerSandbox sandbox(DockerSettings settings, Path workspace, Map<String, String> hostEnv) {
        return sandbox(settings, workspace, hostEnv, List::of);
    }

    /** A sandbox that keeps the protected paths of {@code layouts} out of its container's reach. */
    static DockerSandbox sandbox(
            DockerSettings settings,
            Path workspace,
            Map<String, String> hostEnv,
            Supplier<List<ProtectedLayout>> layouts) {
        DockerSandbox sandbox = DockerSandbox.connect(settings, workspace, List.of(), hostEnv, layouts);
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
