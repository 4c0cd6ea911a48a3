package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.sandbox.DockerSandbox;
import dev.dockhand.sandbox.DockerSettings;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a test that needs the Docker sandbox runs: skipped, with the reason shown, when no engine or image
 * is there; failed instead when DOCKHAND_REQUIRE_DOCKER=1 (CI sets it, so a broken Docker set-up cannot pass as a
 * skip).
 */
public final class DockerRequired {
    private DockerRequired() {}

    /** Asks the engine that {@code variables} name (DOCKER_HOST, else the local socket) what a run would ask. */
    static void check(Path workspace, Map<String, String> variables) {
        DockerSandbox probe = DockerSandbox.connect(DockerSettings.DEFAULT, workspace, List.of(), variables);
        try {
            probe.preflight();
        } catch (SandboxUnavailableException e) {
            if ("1".equals(System.getenv("DOCKHAND_REQUIRE_DOCKER"))) {
                fail("DOCKHAND_REQUIRE_DOCKER=1 but " + e.getMessage(), e);
            }
            assumeTrue(false, "Docker tests skipped: " + e.getMessage());
        } finally {
            probe.close();
        }
    }
}
