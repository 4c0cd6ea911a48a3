package dev.dockhand.cli;

import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.settings.Settings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code dockhand} command: the parsed options, then the run, handed to {@link SingleShot} for {@code -p} or piped
 * input, or to the interactive {@link Repl} on a terminal. The options themselves are declared in
 * {@link CommandLineSpec}; {@link #readOptions} copies their values here, and {@link Configuration} fills in what the
 * command line left alone.
 */
public final class DockhandCommand implements Callable<Integer> {
    CommandSpec spec;
    private Map<String, OptionSpec> options;

    String prompt;
    String provider;
    String model;
    String baseUrl;
    int maxOutputTokens;
    int retries;
    String retryDelay;
    String connectTimeout;
    String firstByteTimeout;
    String idleTimeout;
    ApprovalMode approvalMode;
    boolean yolo;
    int maxTurns;
    String sandbox;
    String sandboxImage;
    String sandboxNetwork;
    String sandboxMemory;
    double sandboxCpus;
    long sandboxPids;
    List<String> sandboxEnv = new ArrayList<>();
    List<Path> includeDirectories = new ArrayList<>();
    int maxOutputChars;
    int maxOutputLines;
    double compressionThreshold;
    Long contextWindow;
    String outputFormat;
    List<String> allowedTools = new ArrayList<>();
    List<String> offeredTools = new ArrayList<>();
    List<String> excludedTools = new ArrayList<>();
    String maxWallTime;
    Integer maxToolCalls;
    Double maxCost;
    String summaryFile;
    String reasoningEffort;
    boolean showThinking;
    String resume;
    boolean stacktrace;

    boolean trustProject;
    List<String> protectedPathsAdded = new ArrayList<>();
    List<String> protectedPathsAllowed = new ArrayList<>();

    /** The variable holding the API key, when settings name one; there is no option for it. */
    String apiKeyEnv;

    /** Prices over Dockhand's table, from the settings; there is no option. */
    Map<String, Settings.Price> pricing = Map.of();

    /** Hosts web_fetch may reach although they are internal, from the user's settings; there is no option. */
    List<String> webFetchAllowedHosts = List.of();

    /** MCP servers by name: the user's settings, a trusted project's, then --mcp-config's file. */
    Map<String, dev.dockhand.core.settings.Settings.McpServer> mcpServers = Map.of();

    /** Whether the user (not an untrusted project) named web_fetch among the allowed tools. */
    boolean fetchNamedByUser;

    /** The settings files as read by {@link #configure}, with what the project's file was not allowed to set. */
    Configuration configuration;

    private final CliEnvironment environment;

    public DockhandCommand(CliEnvironment environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            configure();
            RunOptions options = RunOptions.from(this, environment);
            if (options.trustQuestion().isEmpty()) {
                configuration.notice().ifPresent(line -> {
                    err.println("dockhand: " + line);
                    err.flush();
                });
            }
            if (options.prompt().isEmpty()) {
                if (options.headless().format() != Headless.Format.TEXT) {
                    throw new DockhandException(
                            ExitCodes.USAGE, "--output-format " + outputFormat + " needs a prompt: pass -p \"…\".");
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
            if (stacktrace) {
                e.printStackTrace(err);
            }
            err.flush();
            return e.exitCode();
        }
    }

    /** Fills the options the command line left alone from the settings files. */
    void configure() {
        readOptions();
        configuration = Configuration.load(environment, trustProject);
        configuration.apply(this, spec.commandLine().getParseResult(), environment);
    }

    /** Configures as {@link #configure} does, and returns every value's source, for {@code dockhand config}. */
    List<Configuration.Entry> describeConfiguration() {
        readOptions();
        configuration = Configuration.load(environment, trustProject);
        return configuration.describe(this, spec.commandLine().getParseResult(), environment);
    }

    /** Copies the parsed (or default) value of every option into its field. */
    void readOptions() {
        // One pass to index the options: picocli's findOption searches them all, each time, in code not yet compiled.
        options = new HashMap<>();
        for (OptionSpec option : spec.options()) {
            options.put(option.longestName(), option);
        }
        prompt = value("--prompt");
        provider = value("--provider");
        model = value("--model");
        baseUrl = value("--base-url");
        maxOutputTokens = value("--max-output-tokens");
        retries = value("--retries");
        retryDelay = value("--retry-delay");
        connectTimeout = value("--connect-timeout");
        firstByteTimeout = value("--first-byte-timeout");
        idleTimeout = value("--idle-timeout");
        approvalMode = value("--approval-mode");
        yolo = Boolean.TRUE.equals(value("--yolo"));
        maxTurns = value("--max-turns");
        sandbox = value("--sandbox");
        sandboxImage = value("--sandbox-image");
        sandboxNetwork = value("--sandbox-network");
        sandboxMemory = value("--sandbox-memory");
        sandboxCpus = value("--sandbox-cpus");
        sandboxPids = value("--sandbox-pids");
        sandboxEnv = values("--sandbox-env");
        includeDirectories = values("--include-directory");
        maxOutputChars = value("--max-output-chars");
        maxOutputLines = value("--max-output-lines");
        compressionThreshold = value("--compression-threshold");
        contextWindow = value("--context-window");
        outputFormat = value("--output-format");
        allowedTools = values("--allowed-tools");
        offeredTools = values("--tools");
        excludedTools = values("--excluded-tools");
        maxWallTime = value("--max-wall-time");
        maxToolCalls = value("--max-tool-calls");
        maxCost = value("--max-cost");
        summaryFile = value("--summary-file");
        McpSettings.addConfigFile(value("--mcp-config"), this, environment);
        reasoningEffort = value("--reasoning-effort");
        showThinking = Boolean.TRUE.equals(value("--show-thinking"));
        pricing = Map.of();
        resume = value("--resume");
        stacktrace = Boolean.TRUE.equals(value("--stacktrace"));
        trustProject = Boolean.TRUE.equals(value("--trust-project"));
        protectedPathsAdded = values("--protected-path");
        protectedPathsAllowed = values("--allow-protected-path");
        webFetchAllowedHosts = List.of();
        fetchNamedByUser = allowedTools.contains("web_fetch");
    }

    private <T> T value(String option) {
        return options.get(option).getValue();
    }

    private <T> List<T> values(String option) {
        List<T> given = value(option);
        return given == null ? new ArrayList<>() : new ArrayList<>(given);
    }

    CliEnvironment environment() {
        return environment;
    }
}
