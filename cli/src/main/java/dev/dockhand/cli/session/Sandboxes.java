package dev.dockhand.cli.session;

import dev.dockhand.cli.config.FolderTrust;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.redaction.SecretValues;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.sandbox.SandboxUnavailableException;
import dev.dockhand.sandbox.WatchedSandbox;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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

    /**
     * Refuses a Docker sandbox whose mounts would hold the user's home: a workspace or included folder that is the home
     * folder, a folder above it, or the file system's root would let the container write {@code ~/.bashrc},
     * {@code ~/.gitconfig} or {@code ~/.ssh/authorized_keys}, whatever the protected paths say. The home is
     * {@code HOME} and the account's home ({@code user.home}), each when it is an absolute path; folders are compared
     * by their real paths, so a link cannot hide one in the other. Checked before anything starts, the model included.
     */
    static void refuseHomeMounts(List<Path> roots, CliEnvironment environment) {
        List<Path> homes = Stream.of(environment.variables().get("HOME"), System.getProperty("user.home"))
                .filter(home -> home != null && !home.isBlank() && Path.of(home).isAbsolute())
                .map(home -> real(Path.of(home)))
                .distinct()
                .toList();
        for (int i = 0; i < roots.size(); i++) {
            Path root = real(roots.get(i));
            String instead = i == 0 ? "start Dockhand in a project folder" : "include a project folder instead";
            if (root.getParent() == null) {
                throw refusal(root + ", the whole file system,", instead);
            }
            for (Path home : homes) {
                if (home.equals(root)) {
                    throw refusal(root + ", your home folder,", instead);
                }
                if (home.startsWith(root)) {
                    throw refusal(root + ", which holds your home folder " + home + ",", instead);
                }
            }
        }
    }

    private static DockhandException refusal(String what, String instead) {
        return new DockhandException(
                ExitCodes.CONFIGURATION,
                "the Docker sandbox would mount " + what + " read-write, where a command could change your shell's"
                        + " start-up files, Git settings and SSH keys; " + instead + ".");
    }

    private static Path real(Path path) {
        return FolderTrust.realPath(path.toAbsolutePath().normalize());
    }

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
                workspace.roots(), options.approvalRules().protectedPaths(), warning -> {
                    err.println("dockhand: " + Rendering.printable(warning));
                    err.flush();
                });
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
     * other credentials: the variable that holds the provider key, whatever its name, and every variable the redactor
     * takes for a secret ({@link SecretValues#secretVariable}: the two agree), unless the user named it with
     * {@code --sandbox-env}.
     */
    public static Map<String, String> commandEnvironment(
            Map<String, String> variables, String keyVariable, Set<String> kept) {
        return variables.entrySet().stream()
                .filter(entry -> kept.contains(entry.getKey())
                        || (!entry.getKey().equals(keyVariable)
                                && !SecretValues.secretVariable(entry.getKey(), entry.getValue())))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
