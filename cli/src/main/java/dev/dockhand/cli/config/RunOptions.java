package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.agent.ContextPolicy;
import dev.dockhand.core.hooks.HookDefinitions;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.scheduler.ApprovalRules;
import dev.dockhand.core.scheduler.PermissionRules;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.UserGitConfig;
import dev.dockhand.sandbox.DockerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The settings of one run, resolved from options and environment and checked, so a run that starts has everything
 * it needs. Each problem is one sentence for the user and an exit code. {@code projectTrusted}: whether this folder's
 * own files may widen what runs (its settings in full, its custom commands' {@code allowed-tools}), as the user decided
 * or {@code --trust-project} said for this run.
 */
public record RunOptions(
        Optional<String> prompt,
        ModelChoice model,
        ApprovalMode approvalMode,
        int maxTurns,
        SandboxKind sandbox,
        DockerSettings docker,
        List<Path> includeDirectories,
        OutputLimits outputLimits,
        ContextPolicy contextPolicy,
        Headless headless,
        Optional<String> resume,
        ApprovalRules approvalRules,
        List<String> webFetchAllowedHosts,
        Set<String> sandboxEnvNames,
        String keyVariable,
        Optional<TrustQuestion> trustQuestion,
        Pricing pricing,
        OptionalDouble maxCost,
        Optional<ReasoningEffort> reasoningEffort,
        boolean showThinking,
        Map<String, ConfiguredMcpServer> mcpServers,
        HookDefinitions hooks,
        boolean projectTrusted,
        RedactionSettings redaction) {

    /**
     * The question the REPL asks before it opens, when the folder's settings ask for more than an untrusted folder
     * may and the user never decided: which settings (each {@code key = value}), and the options to run with if the
     * user says yes.
     */
    public record TrustQuestion(
            Path folder, Path userSettings, List<String> settings, String ifNot, Supplier<RunOptions> ifTrusted) {}

    /**
     * One entry of {@code mcpServers} as the run uses it, with the settings it came from, which decides the folder its
     * server starts in on this machine (docs/mcp.md). Holds no MCP class, so a run without servers loads none.
     */
    public record ConfiguredMcpServer(Settings.McpServer settings, Source source) {
        /** Which settings an entry came from. */
        public enum Source {
            /** The user's own settings, or a file the user named with {@code --mcp-config}: in every folder. */
            USER,
            /** The settings of a project the user trusts. */
            PROJECT
        }
    }

    /** Where commands run. */
    public enum SandboxKind {
        /** In a Docker container that sees only the workspace. */
        DOCKER,
        /** Directly on this machine, unconfined. */
        NONE
    }

    public static RunOptions from(OptionValues command, CliEnvironment environment) {
        if (command.get(Option.MAX_TURNS) < 1) {
            throw new DockhandException(
                    ExitCodes.USAGE, "--max-turns must be at least 1, was " + command.get(Option.MAX_TURNS) + ".");
        }
        SandboxKind sandbox = sandboxKind(command.get(Option.SANDBOX));
        DockerSettings docker = dockerSettings(command);
        Optional<String> prompt = prompt(command.get(Option.PROMPT), environment);
        ModelChoice model = ModelChoice.from(command, environment);
        ApprovalMode mode = command.get(Option.YOLO) ? ApprovalMode.YOLO : command.get(Option.APPROVAL_MODE);
        Headless headless = Headless.from(command);
        Pricing pricing = Pricing.with(command.get(Option.PRICING));
        OptionalDouble maxCost = maxCost(command, pricing, model, prompt.isPresent());
        return new RunOptions(
                prompt,
                model,
                mode,
                command.get(Option.MAX_TURNS),
                sandbox,
                docker,
                includeDirectories(command, environment),
                outputLimits(command),
                contextPolicy(command),
                headless,
                Optional.ofNullable(command.get(Option.RESUME)).map(String::strip),
                approvalRules(command, environment, mode, prompt.isPresent()),
                List.copyOf(command.get(Option.WEB_FETCH_ALLOWED_HOSTS)),
                Set.copyOf(command.get(Option.SANDBOX_ENV)),
                command.get(Option.API_KEY_ENV) != null
                        ? command.get(Option.API_KEY_ENV)
                        : model.provider().keyVariable().orElse(""),
                trustQuestion(command, environment, prompt.isPresent()),
                pricing,
                maxCost,
                reasoningEffort(command.get(Option.REASONING_EFFORT)),
                command.get(Option.SHOW_THINKING),
                Map.copyOf(command.mcpServers),
                command.hooks,
                command.configuration != null && command.configuration.trusted(),
                command.redaction);
    }

    /**
     * The spending limit of a {@code -p} run. A limit that cannot be measured is no guard, so a model without a price
     * stops the run before it starts; the REPL shows the cost in {@code /stats} and takes no limit.
     */
    private static OptionalDouble maxCost(OptionValues command, Pricing pricing, ModelChoice model, boolean once) {
        if (command.get(Option.MAX_COST) == null || !once) {
            return OptionalDouble.empty();
        }
        if (!(command.get(Option.MAX_COST) > 0)) {
            throw new DockhandException(
                    ExitCodes.USAGE, "--max-cost must be a positive number of US dollars, like 0.5.");
        }
        if (pricing.find(model.model()).isEmpty()) {
            throw new DockhandException(
                    ExitCodes.CONFIGURATION,
                    "--max-cost needs the price of " + model.model() + ", which Dockhand's table does not know; add"
                            + " it under \"pricing\" in ~/.dockhand/settings.json.");
        }
        return OptionalDouble.of(command.get(Option.MAX_COST));
    }

    private static Optional<ReasoningEffort> reasoningEffort(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(ReasoningEffort.parse(value)
                .orElseThrow(() -> new DockhandException(
                        ExitCodes.USAGE,
                        "--reasoning-effort " + value.strip() + " is not a level; use low, medium or high.")));
    }

    /**
     * What needs the user's explicit yes: the protected paths (the defaults, plus and minus the user's entries), and
     * web fetches in an unattended yolo run that did not name web_fetch: nobody watches what such a run fetches, and
     * the sandbox does not contain it.
     */
    private static ApprovalRules approvalRules(
            OptionValues command, CliEnvironment environment, ApprovalMode mode, boolean headless) {
        ProtectedPaths paths;
        try {
            // The user's own git config files too: a core.hooksPath there names a folder in every repository.
            paths = new ProtectedPaths(
                    command.get(Option.PROTECTED_PATH),
                    command.get(Option.ALLOW_PROTECTED_PATH),
                    UserGitConfig.of(environment.variables()));
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.USAGE, "A protected path: " + e.getMessage());
        }
        boolean unattended = headless
                && (!environment.stdinIsTerminal() || environment.get("CI").isPresent());
        Set<String> allowed = Set.copyOf(command.get(Option.ALLOWED_TOOLS).stream()
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .toList());
        if (mode == ApprovalMode.YOLO && unattended && !command.fetchNamedByUser) {
            return new ApprovalRules(
                    paths,
                    Map.of(
                            ToolKind.FETCH,
                            "In an unattended --yolo run, web fetches run only when the user named web_fetch in"
                                    + " --allowed-tools (or tools.allowed in their own settings): the sandbox does not"
                                    + " contain what a fetch reaches."),
                    allowed,
                    new PermissionRules(command.permissionRules));
        }
        return new ApprovalRules(paths, Map.of(), allowed, new PermissionRules(command.permissionRules));
    }

    private static Optional<TrustQuestion> trustQuestion(
            OptionValues command, CliEnvironment environment, boolean headless) {
        Configuration configuration = command.configuration;
        if (headless
                || configuration == null
                || configuration.trusted()
                || configuration.ignored().isEmpty()
                || configuration.decision() != FolderTrust.Decision.UNDECIDED) {
            return Optional.empty();
        }
        return Optional.of(new TrustQuestion(
                environment.workingDirectory(),
                environment.settingsHome().resolve("settings.json"),
                configuration.ignoredValues(),
                configuration.notice().orElse(""),
                () -> {
                    // Trusted for this run even if the answer could not be saved.
                    command.configureTrustedForThisRun();
                    return from(command, environment);
                }));
    }

    public static SandboxKind sandboxKind(String value) {
        return switch (value.strip()) {
            case "docker" -> SandboxKind.DOCKER;
            case "none" -> SandboxKind.NONE;
            default -> throw new DockhandException(
                    ExitCodes.USAGE, "--sandbox " + value + " is not a sandbox kind; use docker or none.");
        };
    }

    public static DockerSettings dockerSettings(OptionValues command) {
        Long memory = DockerSettings.parseSize(command.get(Option.SANDBOX_MEMORY));
        if (memory == null) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "--sandbox-memory " + command.get(Option.SANDBOX_MEMORY)
                            + " is not a size; write it like 512m or 4g.");
        }
        try {
            return new DockerSettings(
                    command.get(Option.SANDBOX_IMAGE).strip(),
                    command.get(Option.SANDBOX_NETWORK).strip(),
                    memory,
                    command.get(Option.SANDBOX_CPUS),
                    command.get(Option.SANDBOX_PIDS),
                    command.get(Option.SANDBOX_ENV));
        } catch (IllegalArgumentException e) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "The sandbox limits are too small: give --sandbox-memory"
                            + " at least 6m, --sandbox-cpus above 0 and --sandbox-pids at least 16.");
        }
    }

    private static List<Path> includeDirectories(OptionValues command, CliEnvironment environment) {
        List<Path> folders = new ArrayList<>();
        for (Path folder : command.get(Option.INCLUDE_DIRECTORY)) {
            Path absolute = environment.workingDirectory().resolve(folder).normalize();
            if (!Files.isDirectory(absolute)) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        "--include-directory " + folder + " is not a folder; give an existing folder.");
            }
            folders.add(absolute);
        }
        return List.copyOf(folders);
    }

    private static ContextPolicy contextPolicy(OptionValues command) {
        try {
            return new ContextPolicy(
                    command.get(Option.CONTEXT_WINDOW) == null
                            ? OptionalLong.empty()
                            : OptionalLong.of(command.get(Option.CONTEXT_WINDOW)),
                    command.get(Option.COMPRESSION_THRESHOLD),
                    ContextPolicy.DEFAULT_KEEP_TURNS);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "--compression-threshold must be above 0 and at most 1 (like 0.7), and --context-window at least"
                            + " 1024.");
        }
    }

    private static OutputLimits outputLimits(OptionValues command) {
        try {
            return new OutputLimits(command.get(Option.MAX_OUTPUT_CHARS), command.get(Option.MAX_OUTPUT_LINES));
        } catch (IllegalArgumentException e) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "--max-output-chars must be at least 100 and" + " --max-output-lines at least 10.");
        }
    }

    /**
     * The -p text, with piped stdin appended; piped stdin alone when there is no -p. Empty, meaning the interactive
     * REPL, when there is no -p and stdin is a terminal.
     */
    private static Optional<String> prompt(String option, CliEnvironment environment) {
        String given = option == null ? "" : option.strip();
        if (given.isEmpty() && environment.stdinIsTerminal()) {
            return Optional.empty();
        }
        String piped = environment.stdinIsTerminal() ? "" : readAll(environment);
        if (given.isEmpty() && piped.isBlank()) {
            throw new DockhandException(ExitCodes.USAGE, "No prompt: -p was not given and stdin was empty.");
        }
        if (piped.isBlank()) {
            return Optional.of(given);
        }
        return Optional.of(given.isEmpty() ? piped.strip() : given + "\n\n" + piped.strip());
    }

    private static String readAll(CliEnvironment environment) {
        try {
            return new String(environment.stdin().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            // A closed or unreadable stdin means nothing was piped.
            return "";
        }
    }
}
