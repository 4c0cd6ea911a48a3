package dev.dockhand.cli.session;

import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.sandbox.SandboxUnavailableException;
import dev.dockhand.sandbox.WatchedSandbox;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Opens the sandbox a run asked for. Docker is checked before the model is called, so a missing engine or image
 * stops the run with one message instead of failing on the first command; the Docker classes are loaded only here,
 * and only when Docker is asked for.
 */
public final class Sandboxes {
    /**
     * Put around each sandbox a session opens: the sandbox itself, but a test stands in for what only a remote engine
     * shows (a copy back's notices at the end of the session).
     */
    public static volatile UnaryOperator<Sandbox> around = UnaryOperator.identity();

    private Sandboxes() {}

    static Sandbox open(RunOptions options, Workspace workspace, CliEnvironment environment, PrintWriter err)
            throws SandboxUnavailableException {
        return around.apply(opened(options, workspace, environment, err));
    }

    private static Sandbox opened(RunOptions options, Workspace workspace, CliEnvironment environment, PrintWriter err)
            throws SandboxUnavailableException {
        // Scanned once, for the container's mounts or for the check after each command without one. The scan walks
        // the workspace (seconds in a tree of 100,000 files), so it starts now, while the model thinks; the first
        // command waits for it only if it is not done by then.
        Supplier<List<ProtectedLayout>> protectedLayouts = ProtectedLayout.lazily(
                workspace.roots(), options.approvalRules().protectedPaths());
        Thread scan = new Thread(protectedLayouts::get, "dockhand-protected-scan");
        scan.setDaemon(true);
        scan.start();
        return switch (options.sandbox()) {
            case NONE -> {
                err.println("dockhand: --sandbox none: commands run directly on this machine, unconfined.");
                err.flush();
                yield new WatchedSandbox(
                        new LocalSandbox(commandEnvironment(
                                environment.variables(), options.keyVariable(), options.sandboxEnvNames())),
                        protectedLayouts);
            }
            case DOCKER -> DockerSandboxes.open(options, workspace, environment, protectedLayouts, err);
        };
    }

    /**
     * Commands get the user's environment minus its secrets, so a model cannot read the key it runs on or the user's
     * other credentials: the variable that holds the provider key, whatever its name, and every variable named like
     * a secret ({@code *_API_KEY}, {@code *_TOKEN}, {@code *_SECRET*}, {@code *PASSWORD*}, in any case), unless the
     * user named it with {@code --sandbox-env}.
     */
    public static Map<String, String> commandEnvironment(
            Map<String, String> variables, String keyVariable, Set<String> kept) {
        return variables.entrySet().stream()
                .filter(entry -> kept.contains(entry.getKey())
                        || (!entry.getKey().equals(keyVariable) && !looksSecret(entry.getKey())))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static boolean looksSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return upper.endsWith("_API_KEY")
                || upper.endsWith("_TOKEN")
                || upper.contains("_SECRET")
                || upper.contains("PASSWORD");
    }
}
