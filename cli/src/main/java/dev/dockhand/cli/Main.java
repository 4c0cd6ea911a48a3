package dev.dockhand.cli;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Logging;
import dev.dockhand.cli.environment.TerminalText;
import java.io.PrintWriter;
import java.util.Properties;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** The process entry point: picks the JDK's locale data, configures logging, runs the command, exits with its code. */
public final class Main {
    /** The JDK's choice of locale data; see {@link #preferRootLocaleData}. */
    private static final String LOCALE_PROVIDERS = "java.locale.providers";

    private Main() {}

    public static void main(String[] args) {
        preferRootLocaleData(System.getProperties());
        if (Warmup.helpsWith(args)) {
            Warmup.start();
        }
        CliEnvironment environment;
        try {
            environment = CliEnvironment.fromSystem();
        } catch (DockhandException e) {
            System.err.println("dockhand: " + e.getMessage());
            System.exit(e.exitCode());
            return;
        }
        environment.homeNotice().ifPresent(notice -> System.err.println("dockhand: " + notice));
        Logging.toFileUnder(environment.home());
        System.exit(execute(args, environment, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Makes the JDK take its locale data from the small built-in root set instead of CLDR, unless the user chose
     * providers themselves ({@code -Djava.locale.providers}, for instance in JAVA_TOOL_OPTIONS). Dockhand writes
     * English and formats with {@link java.util.Locale#ROOT}, so CLDR's hundreds of locales buy it nothing; yet every
     * run paid for them: Jackson's mapper builds a calendar when it starts, and to find US English's first day of the
     * week CLDR parses the tag of every locale it has, about 20 ms of CPU on a start-up that has none to spare
     * ({@code -p "hello"} 12 ms faster on JDK 25, 9 ms on JDK 17, medians of alternating runs). Set before anything
     * else runs: the JDK reads the property once, when locale data is first used.
     */
    static void preferRootLocaleData(Properties system) {
        if (system.getProperty(LOCALE_PROVIDERS) == null) {
            system.setProperty(LOCALE_PROVIDERS, "FALLBACK");
        }
    }

    /** Runs the command line as {@code main} does, without exiting; tests call this. */
    static int execute(String[] args, CliEnvironment environment, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = CommandLineSpec.create(environment)
                .setOut(TerminalText.output(out))
                .setErr(new PrintWriter(TerminalText.forMessages(err), true))
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
