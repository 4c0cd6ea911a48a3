package dev.dockhand.cli;

import dev.dockhand.core.scheduler.ApprovalMode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code dockhand} command line. Parses options, then hands the run to {@link SingleShot} for {@code -p} or piped
 * input, or to the interactive {@link Repl} on a terminal.
 */
@Command(
        name = "dockhand",
        mixinStandardHelpOptions = true,
        subcommands = {ConfigCommand.class, SessionsCommand.class},
        versionProvider = VersionProvider.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "A coding assistant in your terminal: the model reads, searches, edits and runs code in this folder,",
            "with every tool call validated and approved first.",
            "",
            "  dockhand                                 an interactive session (/help inside)",
            "  dockhand -p \"explain src/Main.java\"",
            "  git diff | dockhand -p \"review this change\"",
            ""
        },
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  OPENAI_API_KEY, OPENAI_BASE_URL        for --provider openai (any OpenAI-compatible server)",
            "  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL  for --provider anthropic",
            "  GEMINI_API_KEY, GEMINI_BASE_URL        for --provider gemini",
            "  OLLAMA_HOST                            for --provider ollama (default http://localhost:11434)",
            "  DOCKHAND_PROVIDER, DOCKHAND_MODEL      provider and model when the options are not given",
            "  DOCKER_HOST                            Docker engine for the sandbox (default: the local socket)"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the model answered",
            "1:the model, provider or network failed",
            "2:usage error (wrong option, no prompt)",
            "41:authentication failed (HTTP 401/403)",
            "44:the Docker sandbox cannot run (no Docker, no image)",
            "52:configuration error (no model, no API key, bad URL)",
            "53:turn limit (--max-turns) reached",
            "54:a tool call needed approval and was refused",
            "55:--max-wall-time reached",
            "56:--max-tool-calls reached",
            "57:the model went round in circles and was stopped",
            "130:interrupted (Ctrl-C)"
        })
public final class DockhandCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = {"-p", "--prompt"},
            paramLabel = "PROMPT",
            description = "Run once with this prompt and exit. Piped stdin is appended to it.")
    String prompt;

    @Option(
            names = "--provider",
            paramLabel = "NAME",
            description = "openai | anthropic | gemini | ollama (default: $DOCKHAND_PROVIDER, else openai).")
    String provider;

    @Option(
            names = "--model",
            paramLabel = "[PROVIDER:]NAME",
            description = "Model name, optionally with its provider, like anthropic:claude-sonnet-4-5 (default:"
                    + " $DOCKHAND_MODEL).")
    String model;

    @Option(
            names = "--base-url",
            paramLabel = "URL",
            description = "The provider's server (default: the provider's variable, like $OPENAI_BASE_URL, else"
                    + " its public API).")
    String baseUrl;

    @Option(
            names = "--max-output-tokens",
            paramLabel = "N",
            defaultValue = "8192",
            description = "Most tokens in one reply, for providers that need a limit (default: ${DEFAULT-VALUE}).")
    int maxOutputTokens;

    @Option(
            names = "--retries",
            paramLabel = "N",
            defaultValue = "3",
            description = "Retries of a request that failed with 429, 5xx or a network error before any of its"
                    + " reply arrived (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(
            names = "--retry-delay",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "First wait before a retry, doubled each time (default: ${DEFAULT-VALUE}).")
    String retryDelay;

    @Option(
            names = "--connect-timeout",
            paramLabel = "DURATION",
            defaultValue = "15s",
            description = "Time-out to connect to the provider (default: ${DEFAULT-VALUE}).")
    String connectTimeout;

    @Option(
            names = "--first-byte-timeout",
            paramLabel = "DURATION",
            defaultValue = "5m",
            description = "Time-out for the first byte of a reply (default: ${DEFAULT-VALUE}).")
    String firstByteTimeout;

    @Option(
            names = "--idle-timeout",
            paramLabel = "DURATION",
            defaultValue = "2m",
            description = "Time-out between two events of a reply stream (default: ${DEFAULT-VALUE}).")
    String idleTimeout;

    @Option(
            names = "--approval-mode",
            paramLabel = "MODE",
            converter = ApprovalModeConverter.class,
            description = "plan | default | auto-edit | yolo (default: ${DEFAULT-VALUE}). plan runs only read-only"
                    + " tools; default asks before edits and commands; auto-edit runs edits and asks before"
                    + " commands; yolo asks nothing.",
            defaultValue = "default")
    ApprovalMode approvalMode;

    @Option(
            names = {"-y", "--yolo"},
            description = "Same as --approval-mode yolo.")
    boolean yolo;

    @Option(
            names = "--max-turns",
            paramLabel = "N",
            defaultValue = "100",
            description = "Most model requests for one prompt (default: ${DEFAULT-VALUE}).")
    int maxTurns;

    @Option(
            names = "--sandbox",
            paramLabel = "KIND",
            defaultValue = "docker",
            description = "Where commands run: docker = in a container that sees only this folder, with no network"
                    + " (default); none = directly on this machine, unconfined.")
    String sandbox;

    @Option(
            names = "--sandbox-image",
            paramLabel = "IMAGE",
            defaultValue = "dockhand-sandbox:latest",
            description = "Image of the sandbox container (default: ${DEFAULT-VALUE}; build it with"
                    + " scripts/build-sandbox-image.sh).")
    String sandboxImage;

    @Option(
            names = "--sandbox-network",
            paramLabel = "MODE",
            defaultValue = "none",
            description = "Docker network of the sandbox (default: ${DEFAULT-VALUE}, no network at all).")
    String sandboxNetwork;

    @Option(
            names = "--sandbox-memory",
            paramLabel = "SIZE",
            defaultValue = "2g",
            description = "Memory limit of the sandbox, like 512m or 4g (default: ${DEFAULT-VALUE}).")
    String sandboxMemory;

    @Option(
            names = "--sandbox-cpus",
            paramLabel = "N",
            defaultValue = "2",
            description = "CPUs the sandbox may use (default: ${DEFAULT-VALUE}).")
    double sandboxCpus;

    @Option(
            names = "--sandbox-pids",
            paramLabel = "N",
            defaultValue = "512",
            description = "Most processes in the sandbox at once (default: ${DEFAULT-VALUE}).")
    long sandboxPids;

    @Option(
            names = "--sandbox-env",
            paramLabel = "NAME",
            description = "Pass this variable of your environment into the sandbox (repeatable); none is passed"
                    + " otherwise.")
    List<String> sandboxEnv = new ArrayList<>();

    @Option(
            names = "--include-directory",
            paramLabel = "DIR",
            description = "Also let the tools read and change files in DIR (repeatable). By default only the current"
                    + " folder is reachable.")
    List<Path> includeDirectories = new ArrayList<>();

    @Option(
            names = "--max-output-chars",
            paramLabel = "N",
            defaultValue = "30000",
            description = "A tool result longer than this reaches the model as head and tail (default:"
                    + " ${DEFAULT-VALUE}).")
    int maxOutputChars;

    @Option(
            names = "--max-output-lines",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Likewise, in lines (default: ${DEFAULT-VALUE}).")
    int maxOutputLines;

    @Option(
            names = "--compression-threshold",
            paramLabel = "FRACTION",
            defaultValue = "0.7",
            description = "Summarise older turns when a request would fill this much of the model's context window"
                    + " (default: ${DEFAULT-VALUE}).")
    double compressionThreshold;

    @Option(
            names = "--context-window",
            paramLabel = "TOKENS",
            description = "The model's context window, for models Dockhand's table does not know (default: from the"
                    + " table, else 128000).")
    Long contextWindow;

    @Option(
            names = "--output-format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text | json | stream-json: json prints one result object at the end, stream-json one"
                    + " JSON object per line as things happen (default: ${DEFAULT-VALUE}).")
    String outputFormat;

    @Option(
            names = "--allowed-tools",
            paramLabel = "NAMES",
            split = ",",
            description = "Offer the model only these tools (comma-separated).")
    List<String> allowedTools = new ArrayList<>();

    @Option(
            names = "--excluded-tools",
            paramLabel = "NAMES",
            split = ",",
            description = "Do not offer these tools (comma-separated).")
    List<String> excludedTools = new ArrayList<>();

    @Option(
            names = "--max-wall-time",
            paramLabel = "DURATION",
            description = "Stop the run after this long, like 30m (exit 55).")
    String maxWallTime;

    @Option(
            names = "--max-tool-calls",
            paramLabel = "N",
            description = "Stop the run when the model asks for more tool calls than this (exit 56).")
    Integer maxToolCalls;

    @Option(
            names = "--resume",
            paramLabel = "ID",
            arity = "0..1",
            fallbackValue = "latest",
            description = "Continue a session of this folder: its id (see dockhand sessions) or latest.")
    String resume;

    @Option(names = "--stacktrace", description = "Show stack traces of failures.")
    boolean stacktrace;

    /** The variable holding the API key, when settings name one; there is no option for it. */
    String apiKeyEnv;

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

    /** Fills the options the command line left alone from the settings files; returns every value's source. */
    List<Configuration.Entry> configure() {
        Configuration configuration = Configuration.load(environment);
        configuration.apply(this, spec.commandLine().getParseResult(), environment);
        return configuration.entries();
    }

    CliEnvironment environment() {
        return environment;
    }

    /** Accepts the approval modes as spelled on the command line. */
    static final class ApprovalModeConverter implements CommandLine.ITypeConverter<ApprovalMode> {
        @Override
        public ApprovalMode convert(String value) {
            return ApprovalMode.parse(value)
                    .orElseThrow(() -> new CommandLine.TypeConversionException(
                            "'" + value + "' is not an approval mode; use one of " + ApprovalMode.choices()));
        }
    }
}
