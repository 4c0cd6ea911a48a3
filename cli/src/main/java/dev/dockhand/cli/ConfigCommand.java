package dev.dockhand.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code dockhand config}: the effective settings, and where each value came from. */
@Command(
        name = "config",
        description = "Print the effective settings and where each value comes from (command line, environment,"
                + " <workspace>/.dockhand/settings.json, ~/.dockhand/settings.json, or default).")
final class ConfigCommand implements Callable<Integer> {
    @ParentCommand
    DockhandCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try {
            List<Configuration.Entry> entries = parent.configure();
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
