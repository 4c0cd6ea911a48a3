package dev.dockhand.cli;

import java.io.PrintWriter;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** The process entry point: configures logging, runs the command, exits with its code. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        if (Warmup.helpsWith(args)) {
            Warmup.start();
        }
        CliEnvironment environment = CliEnvironment.fromSystem();
        Logging.toFileUnder(environment.home());
        System.exit(execute(args, environment, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line as {@code main} does, without exiting; tests call this. */
    static int execute(String[] args, CliEnvironment environment, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = CommandLineSpec.create(environment)
                .setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Main::internalError);
        return commandLine.execute(args);
    }

    /** A bug: one line for the user, the whole story in the log (and on stderr with --stacktrace). */
    private static int internalError(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
        LoggerFactory.getLogger(Main.class).error("internal error", e);
        PrintWriter err = commandLine.getErr();
        err.println("dockhand: internal error: " + e + ". This is a bug; the log under ~/.dockhand/logs has the"
                + " details (or rerun with --stacktrace).");
        if (parsed.hasMatchedOption("--stacktrace")) {
            e.printStackTrace(err);
        }
        err.flush();
        return ExitCodes.PROVIDER_FAILURE;
    }
}
