package dev.dockhand.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** The process entry point: configures logging, runs the command, exits with its code. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        CliEnvironment environment = CliEnvironment.fromSystem();
        Logging.toFileUnder(environment.home());
        System.exit(execute(args, environment, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line as {@code main} does, without exiting; tests call this. */
    static int execute(String[] args, CliEnvironment environment, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new DockhandCommand(environment))
                .setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true);
        return commandLine.execute(args);
    }
}
