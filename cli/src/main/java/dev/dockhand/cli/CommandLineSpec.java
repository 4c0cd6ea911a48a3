package dev.dockhand.cli;

import dev.dockhand.core.scheduler.ApprovalMode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code dockhand} command line, declared through picocli's programmatic API rather than annotations. Reading
 * annotations means reflection over every field and a generated proxy class per annotation type; on a cold JVM that
 * was about half of picocli's share of every {@code -p} call. The options, help text and behaviour are the same.
 * {@link DockhandCommand#readOptions} copies the parsed values into the command's fields.
 */
final class CommandLineSpec {
    private CommandLineSpec() {}

    /** A command line whose user object is a new {@link DockhandCommand}; its subcommands share that command. */
    static CommandLine create(CliEnvironment environment) {
        // Two of picocli's documented switches, set before it initialises. Without them it looks for Groovy's
        // Closure class, and the failed lookup opens and indexes this 16,000-entry jar on the main thread (15 ms);
        // and each CommandLine registers converters for the java.sql and java.time types by reflection, which
        // initialises them, their formatters and locale data (12 ms). No option here has such a type.
        System.setProperty("picocli.disable.closures", "true");
        System.setProperty("picocli.converters.excludes", "java\\.(sql|time)\\..*");
        DockhandCommand command = new DockhandCommand(environment);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name("dockhand");
        spec.versionProvider(new VersionProvider());
        usage(spec);
        runOptions(spec);
        sandboxOptions(spec);
        outputOptions(spec);
        spec.addOption(OptionSpec.builder("--resume")
                .paramLabel("ID")
                .type(String.class)
                .arity("0..1")
                .fallbackValue("latest")
                .description("Continue a session of this folder: its id (see dockhand sessions) or latest.")
                .build());
        spec.addOption(flag(
                "--trust-project",
                "Apply this folder's .dockhand/settings.json in full for this run, as if you trusted the folder."));
        spec.addOption(list(
                "--protected-path",
                "PATH",
                String.class,
                false,
                "Protect PATH too (relative to the workspace; repeatable): changing it needs your explicit yes, and"
                        + " the Docker sandbox mounts it read-only."));
        spec.addOption(list(
                "--allow-protected-path",
                "PATH",
                String.class,
                false,
                "Let the model change this protected path, like .git/hooks (repeatable)."));
        spec.addOption(flag("--stacktrace", "Show stack traces of failures."));
        spec.addOption(OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .description("Show this help message and exit.")
                .build());
        spec.addOption(OptionSpec.builder("-V", "--version")
                .versionHelp(true)
                .description("Print version information and exit.")
                .build());
        command.spec = spec;

        ConfigCommand config = new ConfigCommand(command);
        config.spec = subcommand(
                spec,
                "config",
                config,
                "Print the effective settings and where each value comes from (command line, environment,"
                        + " <workspace>/.dockhand/settings.json, ~/.dockhand/settings.json, or default).");
        for (boolean trust : new boolean[] {true, false}) {
            TrustCommand decision = new TrustCommand(command, trust);
            decision.spec = subcommand(
                    spec,
                    trust ? "trust" : "untrust",
                    decision,
                    trust
                            ? "Trust DIR (default: this folder): its .dockhand/settings.json then applies in full."
                            : "Stop trusting DIR (default: this folder): its .dockhand/settings.json can then only"
                                    + " narrow what your own settings allow.");
            decision.spec.addPositional(CommandLine.Model.PositionalParamSpec.builder()
                    .paramLabel("DIR")
                    .arity("0..1")
                    .type(Path.class)
                    .description("The folder (default: the current one).")
                    .build());
        }
        SessionsCommand sessions = new SessionsCommand(command);
        sessions.spec = subcommand(
                spec,
                "sessions",
                sessions,
                "List this folder's sessions, newest first (continue one with --resume ID).");
        return new CommandLine(spec);
    }

    private static CommandSpec subcommand(CommandSpec parent, String name, Object command, String description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command);
        spec.usageMessage().description(description);
        parent.addSubcommand(name, spec);
        return spec;
    }

    private static void usage(CommandSpec spec) {
        Map<String, String> exitCodes = new LinkedHashMap<>();
        exitCodes.put("0", "the model answered");
        exitCodes.put("1", "the model, provider or network failed");
        exitCodes.put("2", "usage error (wrong option, no prompt)");
        exitCodes.put("41", "authentication failed (HTTP 401/403)");
        exitCodes.put("44", "the Docker sandbox cannot run (no Docker, no image)");
        exitCodes.put("52", "configuration error (no model, no API key, bad URL)");
        exitCodes.put("53", "turn limit (--max-turns) reached");
        exitCodes.put("54", "a tool call needed approval and was refused");
        exitCodes.put("55", "--max-wall-time reached");
        exitCodes.put("56", "--max-tool-calls reached");
        exitCodes.put("57", "the model went round in circles and was stopped");
        exitCodes.put("58", "--max-cost reached");
        exitCodes.put("130", "interrupted (Ctrl-C)");
        spec.usageMessage()
                .sortOptions(false)
                .autoWidth(true)
                .description(
                        "A coding assistant in your terminal: the model reads, searches, edits and runs code in this"
                                + " folder,",
                        "with every tool call validated and approved first.",
                        "",
                        "  dockhand                                 an interactive session (/help inside)",
                        "  dockhand -p \"explain src/Main.java\"",
                        "  git diff | dockhand -p \"review this change\"",
                        "")
                .footerHeading("%nEnvironment:%n")
                .footer(
                        "  OPENAI_API_KEY, OPENAI_BASE_URL        for --provider openai (any OpenAI-compatible"
                                + " server)",
                        "  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL  for --provider anthropic",
                        "  GEMINI_API_KEY, GEMINI_BASE_URL        for --provider gemini",
                        "  OLLAMA_HOST                            for --provider ollama (default"
                                + " http://localhost:11434)",
                        "  DOCKHAND_PROVIDER, DOCKHAND_MODEL      provider and model when the options are not given",
                        "  DOCKER_HOST                            Docker engine for the sandbox (default: the local"
                                + " socket)")
                .exitCodeListHeading("%nExit codes:%n")
                .exitCodeList(exitCodes);
    }

    private static void runOptions(CommandSpec spec) {
        spec.addOption(OptionSpec.builder("-p", "--prompt")
                .paramLabel("PROMPT")
                .type(String.class)
                .description("Run once with this prompt and exit. Piped stdin is appended to it.")
                .build());
        spec.addOption(text(
                "--provider",
                "NAME",
                null,
                "openai | anthropic | gemini | ollama (default: $DOCKHAND_PROVIDER, else openai)."));
        spec.addOption(text(
                "--model",
                "[PROVIDER:]NAME",
                null,
                "Model name, optionally with its provider, like anthropic:claude-sonnet-4-5 (default:"
                        + " $DOCKHAND_MODEL)."));
        spec.addOption(text(
                "--base-url",
                "URL",
                null,
                "The provider's server (default: the provider's variable, like $OPENAI_BASE_URL, else its public"
                        + " API)."));
        spec.addOption(typed(
                "--max-output-tokens",
                "N",
                int.class,
                "8192",
                "Most tokens in one reply, for providers that need a limit (default: ${DEFAULT-VALUE})."));
        spec.addOption(typed(
                "--retries",
                "N",
                int.class,
                "3",
                "Retries of a request that failed with 429, 5xx or a network error before any of its reply arrived"
                        + " (default: ${DEFAULT-VALUE})."));
        spec.addOption(text(
                "--retry-delay",
                "DURATION",
                "1s",
                "First wait before a retry, doubled each time (default: ${DEFAULT-VALUE})."));
        spec.addOption(text(
                "--connect-timeout",
                "DURATION",
                "15s",
                "Time-out to connect to the provider (default: ${DEFAULT-VALUE})."));
        spec.addOption(text(
                "--first-byte-timeout",
                "DURATION",
                "5m",
                "Time-out for the first byte of a reply (default: ${DEFAULT-VALUE})."));
        spec.addOption(text(
                "--idle-timeout",
                "DURATION",
                "2m",
                "Time-out between two events of a reply stream (default: ${DEFAULT-VALUE})."));
        spec.addOption(OptionSpec.builder("--approval-mode")
                .paramLabel("MODE")
                .type(ApprovalMode.class)
                .converters(new ApprovalModeConverter())
                .defaultValue("default")
                .description("plan | default | auto-edit | yolo (default: ${DEFAULT-VALUE}). plan runs only"
                        + " read-only tools; default asks before edits and commands; auto-edit runs edits and asks"
                        + " before commands; yolo asks nothing.")
                .build());
        spec.addOption(OptionSpec.builder("-y", "--yolo")
                .type(boolean.class)
                .description("Same as --approval-mode yolo.")
                .build());
        spec.addOption(typed(
                "--max-turns",
                "N",
                int.class,
                "100",
                "Most model requests for one prompt (default: ${DEFAULT-VALUE})."));
    }

    private static void sandboxOptions(CommandSpec spec) {
        spec.addOption(text(
                "--sandbox",
                "KIND",
                "docker",
                "Where commands run: docker = in a container that sees only this folder, with no network"
                        + " (default); none = directly on this machine, unconfined."));
        spec.addOption(text(
                "--sandbox-image",
                "IMAGE",
                "dockhand-sandbox:latest",
                "Image of the sandbox container (default: ${DEFAULT-VALUE}; build it with"
                        + " scripts/build-sandbox-image.sh)."));
        spec.addOption(text(
                "--sandbox-network",
                "MODE",
                "none",
                "Docker network of the sandbox (default: ${DEFAULT-VALUE}, no network at all)."));
        spec.addOption(text(
                "--sandbox-memory",
                "SIZE",
                "2g",
                "Memory limit of the sandbox, like 512m or 4g (default: ${DEFAULT-VALUE})."));
        spec.addOption(typed(
                "--sandbox-cpus", "N", double.class, "2", "CPUs the sandbox may use (default: ${DEFAULT-VALUE})."));
        spec.addOption(typed(
                "--sandbox-pids",
                "N",
                long.class,
                "512",
                "Most processes in the sandbox at once (default: ${DEFAULT-VALUE})."));
        spec.addOption(list(
                "--sandbox-env",
                "NAME",
                String.class,
                false,
                "Pass this variable of your environment into the sandbox (repeatable); none is passed otherwise."));
        spec.addOption(list(
                "--include-directory",
                "DIR",
                Path.class,
                false,
                "Also let the tools read and change files in DIR (repeatable). By default only the current folder"
                        + " is reachable."));
    }

    private static void outputOptions(CommandSpec spec) {
        spec.addOption(typed(
                "--max-output-chars",
                "N",
                int.class,
                "30000",
                "A tool result longer than this reaches the model as head and tail (default: ${DEFAULT-VALUE})."));
        spec.addOption(
                typed("--max-output-lines", "N", int.class, "1000", "Likewise, in lines (default: ${DEFAULT-VALUE})."));
        spec.addOption(typed(
                "--compression-threshold",
                "FRACTION",
                double.class,
                "0.7",
                "Summarise older turns when a request would fill this much of the model's context window"
                        + " (default: ${DEFAULT-VALUE})."));
        spec.addOption(typed(
                "--context-window",
                "TOKENS",
                Long.class,
                null,
                "The model's context window, for models Dockhand's table does not know (default: from the table,"
                        + " else 128000)."));
        spec.addOption(text(
                "--output-format",
                "FORMAT",
                "text",
                "text | json | stream-json: json prints one result object at the end, stream-json one JSON object"
                        + " per line as things happen (default: ${DEFAULT-VALUE})."));
        spec.addOption(list(
                "--allowed-tools",
                "NAMES",
                String.class,
                true,
                "Let calls of these tools run without a question, in every approval mode but plan"
                        + " (comma-separated)."));
        spec.addOption(
                list("--tools", "NAMES", String.class, true, "Offer the model only these tools (comma-separated)."));
        spec.addOption(
                list("--excluded-tools", "NAMES", String.class, true, "Do not offer these tools (comma-separated)."));
        spec.addOption(text("--max-wall-time", "DURATION", null, "Stop the run after this long, like 30m (exit 55)."));
        spec.addOption(typed(
                "--max-tool-calls",
                "N",
                Integer.class,
                null,
                "Stop the run when the model asks for more tool calls than this (exit 56)."));
        spec.addOption(typed(
                "--max-cost",
                "USD",
                Double.class,
                null,
                "Stop the run before another request once it has cost more than this many US dollars (exit 58); the"
                        + " model needs a known price."));
        spec.addOption(text(
                "--summary-file",
                "PATH",
                null,
                "With -p, write a short Markdown report of the run there at the end, also when it fails (for"
                        + " $GITHUB_STEP_SUMMARY or a job artifact)."));
        spec.addOption(text(
                "--mcp-config",
                "FILE",
                null,
                "Add the MCP servers of this JSON file ({\"mcpServers\": {...}}, as in the settings) for this run."));
        spec.addOption(text(
                "--reasoning-effort",
                "LEVEL",
                null,
                "low | medium | high: how hard the model reasons before it answers (default: the provider's)."));
        spec.addOption(flag("--show-thinking", "With -p, print the model's reasoning on stderr as it streams."));
    }

    private static OptionSpec text(String name, String label, String defaultValue, String description) {
        return typed(name, label, String.class, defaultValue, description);
    }

    private static OptionSpec typed(String name, String label, Class<?> type, String defaultValue, String description) {
        return OptionSpec.builder(name)
                .paramLabel(label)
                .type(type)
                .defaultValue(defaultValue)
                .description(description)
                .build();
    }

    private static OptionSpec list(
            String name, String label, Class<?> element, boolean commaSeparated, String description) {
        OptionSpec.Builder builder = OptionSpec.builder(name)
                .paramLabel(label)
                .type(List.class)
                .auxiliaryTypes(element)
                .description(description);
        if (commaSeparated) {
            builder.splitRegex(",");
        }
        return builder.build();
    }

    private static OptionSpec flag(String name, String description) {
        return OptionSpec.builder(name)
                .type(boolean.class)
                .description(description)
                .build();
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
