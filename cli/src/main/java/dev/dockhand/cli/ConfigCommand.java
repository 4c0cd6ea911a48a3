package dev.dockhand.cli;

import dev.dockhand.cli.config.Configuration;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code dockhand config}: every option of {@link dev.dockhand.cli.config.Option}'s table that a settings file can set, its value and source. */
public final class ConfigCommand implements Callable<Integer> {
    private final DockhandCommand parent;
    CommandSpec spec;

    ConfigCommand(DockhandCommand parent) {
        this.parent = parent;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try {
            // A project's file wrote keys, values and paths: escape sequences in them would reach the terminal, and
            // could rewrite the line that says they were ignored.
            List<Configuration.Entry> entries = parent.describeConfiguration().stream()
                    .map(entry -> new Configuration.Entry(
                            Rendering.printable(entry.key()),
                            Rendering.printable(entry.value()),
                            Rendering.printable(entry.source())))
                    .toList();
            int width = entries.stream()
                    .mapToInt(entry -> entry.key().length())
                    .max()
                    .orElse(0);
            for (Configuration.Entry entry : entries) {
                out.printf("%-" + width + "s = %s    (%s)%n", entry.key(), entry.value(), entry.source());
            }
            out.flush();
            return ExitCodes.OK;
        } catch (DockhandException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("dockhand: " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
    }
}
