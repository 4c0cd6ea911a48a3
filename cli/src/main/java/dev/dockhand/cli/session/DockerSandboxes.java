package dev.dockhand.cli.session;

import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.DockerSandbox;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.io.PrintWriter;
import java.util.List;
import java.util.function.Supplier;

/** Kept apart from {@link Sandboxes} so that runs without Docker never load docker-java. */
public final class DockerSandboxes {
    private DockerSandboxes() {}

    static DockerSandbox open(
            RunOptions options,
            Workspace workspace,
            CliEnvironment environment,
            Supplier<List<ProtectedLayout>> protectedLayouts,
            PrintWriter err)
            throws SandboxUnavailableException {
        List<java.nio.file.Path> extraRoots =
                workspace.roots().subList(1, workspace.roots().size());
        DockerSandbox sandbox = DockerSandbox.connect(
                options.docker(), workspace.root(), extraRoots, environment.variables(), protectedLayouts);
        try {
            sandbox.preflight();
        } catch (SandboxUnavailableException e) {
            sandbox.close();
            throw e;
        }
        // An engine that stops answering is given up on at the end of the session, with one line naming the container.
        sandbox.onWarning(warning -> {
            err.println("dockhand: " + Rendering.printable(warning));
            err.flush();
        });
        // The engine answered; the container starts while the model thinks about the first prompt.
        sandbox.startAhead();
        return sandbox;
    }
}
