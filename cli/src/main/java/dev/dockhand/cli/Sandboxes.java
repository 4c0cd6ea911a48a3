package dev.dockhand.cli;

import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Opens the sandbox a run asked for. Docker is checked before the model is called, so a missing engine or image
 * stops the run with one message instead of failing on the first command; the Docker classes are loaded only here,
 * and only when Docker is asked for.
 */
final class Sandboxes {
    private Sandboxes() {}

    static Sandbox open(RunOptions options, Workspace workspace, CliEnvironment environment, PrintWriter err)
            throws SandboxUnavailableException {
        return switch (options.sandbox()) {
            case NONE -> {
                err.println("dockhand: --sandbox none: commands run directly on this machine, unconfined.");
                err.flush();
                yield new LocalSandbox(commandEnvironment(environment.variables()));
            }
            case DOCKER -> DockerSandboxes.open(options, workspace, environment);
        };
    }

    /** Commands get the user's environment minus API keys, so a model cannot read the key it runs on. */
    static Map<String, String> commandEnvironment(Map<String, String> variables) {
        return variables.entrySet().stream()
                .filter(entry -> !entry.getKey().endsWith("_API_KEY"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
