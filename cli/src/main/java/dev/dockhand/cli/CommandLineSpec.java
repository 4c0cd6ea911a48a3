package dev.dockhand.cli;

import dev.dockhand.cli.config.Option;
import dev.dockhand.cli.environment.CliEnvironment;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code dockhand} command line: the options of {@link Option}'s table, the subcommands, and the help's
 * environment and exit codes.
 */
public final class CommandLineSpec {
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
        for (Option<?> option : Option.all()) {
            if (option.flag() != null) {
                spec.addOption(optionSpec(option));
            }
        }
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
        CheckpointsCommand.declare(spec, command);
        McpCommand.declare(spec, command);
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
        exitCodes.put("52", "configuration error (no model, no API key, bad URL, home as a Docker workspace)");
        exitCodes.put("53", "turn limit (--max-turns) reached");
        exitCodes.put("54", "a tool call needed approval and was refused");
        exitCodes.put("55", "--max-wall-time reached");
        exitCodes.put("56", "--max-tool-calls reached");
        exitCodes.put("57", "the model went round in circles and was stopped");
        exitCodes.put("58", "--max-cost reached");
        exitCodes.put("59", "a UserPromptSubmit hook blocked the prompt");
        exitCodes.put("61", "checkpoints restore was not confirmed (no --yes, no terminal)");
        exitCodes.put("62", "the checkpoints could not be read or restored");
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

    private static OptionSpec optionSpec(Option<?> option) {
        OptionSpec.Builder builder = OptionSpec.builder(option.names.toArray(String[]::new))
                .type(option.type)
                .defaultValue(option.defaultValue)
                .description(option.help);
        if (option.label != null) {
            builder.paramLabel(option.label);
        }
        if (option.element != null) {
            builder.auxiliaryTypes(option.element);
        }
        if (option.commaSeparated) {
            builder.splitRegex(",");
        }
        if (option.arity != null) {
            builder.arity(option.arity).fallbackValue(option.fallback);
        }
        if (option.converter != null) {
            builder.converters(option.converter);
        }
        return builder.build();
    }
}
