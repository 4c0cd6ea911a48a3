package dev.dockhand.cli;

import dev.dockhand.cli.config.FolderTrust;
import dev.dockhand.cli.config.edit.TrustedFolders;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code dockhand trust [DIR]} and {@code dockhand untrust [DIR]}: the user's decision about a folder's own settings,
 * recorded in their settings file by the folder's real path (declared in CommandLineSpec).
 */
public final class TrustCommand implements Callable<Integer> {
    private final DockhandCommand parent;
    private final boolean trust;
    CommandSpec spec;

    TrustCommand(DockhandCommand parent, boolean trust) {
        this.parent = parent;
        this.trust = trust;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CliEnvironment environment = parent.environment();
        Path given = spec.positionalParameters().get(0).getValue();
        Path folder = environment.workingDirectory().resolve(given == null ? Path.of(".") : given);
        if (!Files.isDirectory(folder)) {
            err.println("dockhand: " + folder + " is not a folder.");
            err.flush();
            return ExitCodes.USAGE;
        }
        Path real = FolderTrust.realPath(folder);
        Path settings = environment.settingsHome().resolve("settings.json");
        try {
            TrustedFolders.record(settings, real, trust);
        } catch (IOException | RuntimeException e) {
            err.println("dockhand: cannot record the decision in " + settings + ": " + e.getMessage());
            err.flush();
            return ExitCodes.CONFIGURATION;
        }
        out.println(
                trust
                        ? "Trusted " + real
                                + ": its .dockhand/settings.json now applies in full (protected paths excepted)."
                        : "Not trusted " + real
                                + ": its .dockhand/settings.json can only narrow what your settings allow.");
        out.flush();
        return ExitCodes.OK;
    }
}
