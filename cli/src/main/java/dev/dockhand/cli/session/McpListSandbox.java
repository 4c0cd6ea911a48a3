package dev.dockhand.cli.session;

import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.sandbox.DockerSandbox;
import dev.dockhand.sandbox.DockerSettings;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The sandbox {@code dockhand mcp list} starts the servers with {@code "sandbox": true} in: the kind, image, limits
 * and protected paths a session in this folder would have, so that the list shows what a session would get. Kept
 * apart so that listing servers none of which runs in the sandbox never loads docker-java.
 */
public final class McpListSandbox {
    private McpListSandbox() {}

    /**
     * Opens the sandbox: with {@code --sandbox none}, one that confines nothing (so the servers fail to start, saying
     * why); else a Docker sandbox on the working directory, checked before it is returned.
     */
    public static Sandbox open(
            RunOptions.SandboxKind kind,
            DockerSettings docker,
            ProtectedPaths protectedPaths,
            CliEnvironment environment)
            throws SandboxUnavailableException {
        if (kind == RunOptions.SandboxKind.NONE) {
            return Sandboxes.around.apply(new LocalSandbox(Map.of()));
        }
        Path folder = environment.workingDirectory();
        Sandboxes.refuseHomeMounts(List.of(folder), environment);
        DockerSandbox sandbox = DockerSandbox.connect(
                docker,
                folder,
                List.of(),
                environment.variables(),
                ProtectedLayout.lazily(List.of(folder), protectedPaths));
        try {
            sandbox.preflight();
        } catch (SandboxUnavailableException e) {
            sandbox.close();
            throw e;
        }
        return Sandboxes.around.apply(sandbox);
    }
}
