package dev.dockhand.cli;

import dev.dockhand.cli.config.Configuration;
import dev.dockhand.cli.config.Headless;
import dev.dockhand.cli.config.Option;
import dev.dockhand.cli.config.OptionValues;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.headless.SingleShot;
import dev.dockhand.cli.repl.Repl;
import dev.dockhand.cli.session.AgentSession;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code dockhand} command: the options' values, then the run, handed to {@link SingleShot} for {@code -p} or
 * piped input, or to the interactive {@link Repl} on a terminal. The options are declared in {@link Option};
 * {@link #readOptions} takes their parsed values, and {@link Configuration} fills in what the command line left
 * alone.
 */
public final class DockhandCommand extends OptionValues implements Callable<Integer> {
    CommandSpec spec;

    private final CliEnvironment environment;

    public DockhandCommand(CliEnvironment environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            configure();
            AgentSession.onSchedulerReady = Warmup::toolsOnce;
            RunOptions options = RunOptions.from(this, environment);
            Warmup.tlsOnce(options.model().baseUrl());
            configuration.meaningWarnings().forEach(line -> err.println("dockhand: " + line));
            err.flush();
            if (options.trustQuestion().isEmpty()) {
                configuration.notice().ifPresent(line -> {
                    err.println("dockhand: " + line);
                    err.flush();
                });
            }
            if (options.prompt().isEmpty()) {
                if (options.headless().format() != Headless.Format.TEXT) {
                    throw new DockhandException(
                            ExitCodes.USAGE,
                            "--output-format " + get(Option.OUTPUT_FORMAT) + " needs a prompt: pass -p \"…\".");
                }
                return Repl.start(options, environment, err);
            }
            SingleShot run =
                    new SingleShot(options, environment, spec.commandLine().getOut(), err);
            if (environment.handleSignals()) {
                run.cancelOnSigint();
            }
            return run.run();
        } catch (DockhandException e) {
            err.println("dockhand: " + e.getMessage());
            if (Boolean.TRUE.equals(get(Option.STACKTRACE))) {
                e.printStackTrace(err);
            }
            err.flush();
            return e.exitCode();
        }
    }

    /** Fills the options the command line left alone from the settings files. */
    void configure() {
        readOptions();
        configuration = Configuration.load(environment, get(Option.TRUST_PROJECT));
        configuration.apply(this, spec.commandLine().getParseResult(), environment);
    }

    /** Configures as {@link #configure} does, with the folder's settings applied in full, as if it were trusted. */
    @Override
    public void configureTrustedForThisRun() {
        readOptions();
        set(Option.TRUST_PROJECT, true);
        configuration = Configuration.load(environment, true);
        configuration.apply(this, spec.commandLine().getParseResult(), environment);
    }

    /** Configures as {@link #configure} does, and returns every value's source, for {@code dockhand config}. */
    List<Configuration.Entry> describeConfiguration() {
        readOptions();
        configuration = Configuration.load(environment, get(Option.TRUST_PROJECT));
        return configuration.describe(this, spec.commandLine().getParseResult(), environment);
    }

    /** Takes every option's parsed (or default) value; an option without a flag starts at its initial value. */
    void readOptions() {
        clear();
        for (Option<?> option : Option.all()) {
            if (option.flag() == null) {
                put(option, option.initial);
                continue;
            }
            Object value = spec.findOption(option.flag()).getValue();
            if (option.type == boolean.class) {
                value = Boolean.TRUE.equals(value);
            } else if (option.type == List.class) {
                value = value == null ? new ArrayList<>() : new ArrayList<>((List<?>) value);
            }
            put(option, value);
        }
        fetchNamedByUser = get(Option.ALLOWED_TOOLS).contains("web_fetch");
    }

    /** The sentence naming the project's settings that did not apply, after {@link #configure}. */
    java.util.Optional<String> configurationNotice() {
        return configuration.notice();
    }

    CliEnvironment environment() {
        return environment;
    }
}
