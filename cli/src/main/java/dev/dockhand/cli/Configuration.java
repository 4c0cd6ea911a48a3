package dev.dockhand.cli;

import dev.dockhand.core.model.Provider;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import dev.dockhand.sandbox.DockerSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Layers the settings: command line, then environment, then the project's {@code .dockhand/settings.json}, then the
 * user's {@code ~/.dockhand/settings.json}, then defaults. Values from the files are written into the options that
 * the command line left alone, so everything downstream reads one place; each value's source is kept for
 * {@code dockhand config}.
 *
 * <p>The project's file is input, not authority: a cloned repository wrote it. Until the user trusts the folder
 * ({@link FolderTrust}), a project value counts only when it narrows what would apply without it ({@link ProjectRule});
 * the others are ignored and listed in {@link #ignored}. {@code protectedPaths} and {@code trustedFolders} count
 * only from the user's own file, trusted folder or not.
 */
final class Configuration {
    private final Layer project;
    private final Layer user;
    private final FolderTrust.Decision decision;
    private final boolean trustedForThisRun;
    private final List<Entry> entries = new ArrayList<>();
    private final List<String> ignored = new ArrayList<>();
    private final List<String> ignoredValues = new ArrayList<>();
    private final List<String> userOnly = new ArrayList<>();

    /** One setting's effective value and where it came from. */
    record Entry(String key, String value, String source) {}

    private record Layer(Path file, Settings settings) {}

    /** A value taken from an environment variable. */
    private record FromEnv(String name, String value) {}

    private Configuration(Layer project, Layer user, FolderTrust.Decision decision, boolean trustedForThisRun) {
        this.project = project;
        this.user = user;
        this.decision = decision;
        this.trustedForThisRun = trustedForThisRun;
    }

    /** Reads both files; a bad one stops the run with exit 52 and one sentence. */
    static Configuration load(CliEnvironment environment, boolean trustProject) {
        Path projectFile = environment.workingDirectory().resolve(".dockhand/settings.json");
        Path userFile = environment.settingsHome().resolve("settings.json");
        try {
            Settings userSettings = SettingsFiles.read(userFile);
            return new Configuration(
                    new Layer(projectFile, SettingsFiles.read(projectFile)),
                    new Layer(userFile, userSettings),
                    FolderTrust.of(userSettings, environment.workingDirectory()),
                    trustProject);
        } catch (SettingsException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
    }

    /** Whether the project's settings apply in full this run. */
    boolean trusted() {
        return trustedForThisRun || decision == FolderTrust.Decision.TRUSTED;
    }

    FolderTrust.Decision decision() {
        return decision;
    }

    Path projectFile() {
        return project.file();
    }

    /** The project's keys that were ignored because the folder is not trusted, in the order they were read. */
    List<String> ignored() {
        return List.copyOf(ignored);
    }

    /** Each ignored key with the project's value, like {@code baseUrl = "http://…"}, the value cut short. */
    List<String> ignoredValues() {
        return List.copyOf(ignoredValues);
    }

    /** The project's keys that only the user's own settings can set, which were ignored. */
    List<String> userOnly() {
        return List.copyOf(userOnly);
    }

    /**
     * One sentence naming the project's keys that were ignored and how to trust the folder; empty when the project
     * set nothing it was not allowed to.
     */
    Optional<String> notice() {
        List<String> parts = new ArrayList<>();
        if (!ignored.isEmpty()) {
            parts.add("ignored " + String.join(", ", ignored) + ": this folder is not trusted, and they would widen"
                    + " what runs or where data goes; trust it with 'dockhand trust' (or --trust-project for one"
                    + " run)");
        }
        if (!userOnly.isEmpty()) {
            parts.add("ignored " + String.join(", ", userOnly) + ": only your own settings (" + user.file() + ") set "
                    + (userOnly.size() == 1 ? "it" : "them"));
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of(project.file() + ": " + String.join("; ", parts) + ".");
    }

    /** Fills the options the command line did not give from the files. */
    void apply(DockhandCommand command, CommandLine.ParseResult parsed, CliEnvironment environment) {
        // Most runs have no settings file, and walking the keys would then change nothing. It links some sixty
        // lambdas, about 20 ms of a cold start, so without a file only `dockhand config` pays for it. (By identity:
        // the first call of a record's equals sets up its invokedynamic machinery, another 10 ms.)
        if (project.settings() == Settings.EMPTY && user.settings() == Settings.EMPTY) {
            return;
        }
        walk(command, parsed, environment);
    }

    /** Applies the files as {@link #apply} does, and returns every value's effective value and source. */
    List<Entry> describe(DockhandCommand command, CommandLine.ParseResult parsed, CliEnvironment environment) {
        walk(command, parsed, environment);
        entries.add(new Entry(
                "trust", trustLabel(), projectFile().getParent().getParent().toString()));
        return List.copyOf(entries);
    }

    private String trustLabel() {
        if (trustedForThisRun) {
            return "trusted for this run (--trust-project)";
        }
        return switch (decision) {
            case TRUSTED -> "trusted (" + user.file() + ")";
            case DISTRUSTED -> "not trusted (" + user.file() + ")";
            case UNDECIDED -> "not trusted (never decided; dockhand trust)";
        };
    }

    /** Fills the options the command line did not give from the files, and records every value's source. */
    private void walk(DockhandCommand command, CommandLine.ParseResult parsed, CliEnvironment environment) {
        Optional<String> providerEnv = environment.get("DOCKHAND_PROVIDER");
        key(
                "provider",
                "--provider",
                parsed,
                providerEnv.map(v -> new FromEnv("DOCKHAND_PROVIDER", v)),
                Settings::provider,
                value -> command.provider = value,
                () -> command.provider == null ? "openai" : command.provider,
                ProjectRule.userOnly());
        String providerName = command.provider != null ? command.provider : providerEnv.orElse("openai");
        Optional<String> modelEnv = environment.get("DOCKHAND_MODEL");
        key(
                "model",
                "--model",
                parsed,
                modelEnv.map(v -> new FromEnv("DOCKHAND_MODEL", v)),
                Settings::model,
                value -> command.model = value,
                () -> command.model,
                // Another model of the same provider only: a prefix (or losing one) would switch provider, server
                // and key.
                (value, without) ->
                        providerOf(value, providerName) == providerOf(String.valueOf(without), providerName));
        // As ModelChoice decides it: a provider prefix on the model wins, so the base URL shown is that provider's.
        String modelName = command.model != null ? command.model : modelEnv.orElse("");
        Provider provider = providerOf(modelName, providerName);
        key(
                "baseUrl",
                "--base-url",
                parsed,
                environment.get(provider.baseUrlVariable()).map(v -> new FromEnv(provider.baseUrlVariable(), v)),
                Settings::baseUrl,
                value -> command.baseUrl = value,
                () -> command.baseUrl == null ? provider.defaultBaseUrl() : command.baseUrl,
                ProjectRule.userOnly());
        key(
                "apiKeyEnv",
                null,
                parsed,
                Optional.empty(),
                Settings::apiKeyEnv,
                value -> command.apiKeyEnv = value,
                () -> command.apiKeyEnv == null ? provider.keyVariable().orElse("(none)") : command.apiKeyEnv,
                ProjectRule.userOnly());
        applyRun(command, parsed);
        new SandboxKeys(this, command, parsed).apply();
        applyTools(command, parsed);
        applyBudgets(command, parsed);
        applyUserOnly(command);
        McpSettings.apply(project.settings(), user.settings(), trusted(), command, ignored);
    }

    private static Provider providerOf(String model, String providerName) {
        return ModelChoice.prefixOf(model == null ? "" : model)
                .orElse(Provider.parse(providerName).orElse(Provider.OPENAI));
    }

    /** How a run is bounded: approval and turns. */
    private void applyRun(DockhandCommand command, CommandLine.ParseResult parsed) {
        key(
                "approvalMode",
                "--approval-mode",
                parsed,
                Optional.empty(),
                Settings::approvalMode,
                value -> command.approvalMode = approvalMode(value),
                () -> command.approvalMode.cliName(),
                (value, without) -> ApprovalMode.parse(value)
                        .map(mode -> ApprovalMode.parse(String.valueOf(without))
                                .map(limit -> mode.compareTo(limit) <= 0)
                                .orElse(false))
                        .orElse(true));
        key(
                "maxTurns",
                "--max-turns",
                parsed,
                Optional.empty(),
                Settings::maxTurns,
                value -> command.maxTurns = value,
                () -> command.maxTurns,
                ProjectRule.<Integer>atMost());
        applySpending(command, parsed);
    }

    /**
     * What a run may spend and how hard the model reasons. A project may lower {@code maxCost}, never raise it; and
     * since cost is measured with the prices, a project's {@code pricing} counts only in a trusted folder (lower prices
     * would let a run spend past the user's limit).
     */
    private void applySpending(DockhandCommand command, CommandLine.ParseResult parsed) {
        key(
                "maxCost",
                "--max-cost",
                parsed,
                Optional.empty(),
                Settings::maxCost,
                value -> command.maxCost = maxCost(value),
                () -> command.maxCost,
                ProjectRule.<Double>atMost());
        key(
                "reasoningEffort",
                "--reasoning-effort",
                parsed,
                Optional.empty(),
                Settings::reasoningEffort,
                value -> command.reasoningEffort = reasoningEffort(value),
                () -> command.reasoningEffort == null ? "(the provider's default)" : command.reasoningEffort,
                ProjectRule.any());
        key(
                "pricing",
                null,
                parsed,
                Optional.empty(),
                Settings::pricing,
                value -> {
                    Pricing.with(value);
                    command.pricing = Map.copyOf(value);
                },
                () -> command.pricing,
                ProjectRule.userOnly());
    }

    private static double maxCost(double value) {
        if (!(value > 0)) {
            throw new IllegalArgumentException("must be a positive number of US dollars, like 0.5, not " + value + ".");
        }
        return value;
    }

    private static String reasoningEffort(String value) {
        if (ReasoningEffort.parse(value).isEmpty()) {
            throw new IllegalArgumentException("must be low, medium or high, not '" + value + "'.");
        }
        return value;
    }

    /** Which tools the model is offered, and which run without a question. */
    private void applyTools(DockhandCommand command, CommandLine.ParseResult parsed) {
        key(
                "tools.allowed",
                "--allowed-tools",
                parsed,
                Optional.empty(),
                s -> tools(s).allowed(),
                value -> command.allowedTools = new ArrayList<>(value),
                () -> command.allowedTools,
                // Calls that run without a question widen what runs: an untrusted project may only name fewer.
                ProjectRule.within());
        key(
                "tools.core",
                "--tools",
                parsed,
                Optional.empty(),
                s -> tools(s).core(),
                value -> command.offeredTools = new ArrayList<>(value),
                () -> command.offeredTools,
                ProjectRule.offered());
        if (!parsed.hasMatchedOption("--allowed-tools")) {
            // Naming web_fetch lets fetches run unattended: only the user's own list (or a trusted folder's) counts.
            List<String> fromProject = tools(project.settings()).allowed();
            List<String> named = fromProject != null
                    ? (trusted() ? fromProject : List.of())
                    : tools(user.settings()).allowed();
            command.fetchNamedByUser = named != null && named.contains("web_fetch");
        }
        key(
                "tools.excluded",
                "--excluded-tools",
                parsed,
                Optional.empty(),
                s -> tools(s).excluded(),
                value -> command.excludedTools = new ArrayList<>(value),
                () -> command.excludedTools,
                ProjectRule.withheld());
    }

    /** How much of each result the model reads, when the conversation is compressed, what web_fetch may reach. */
    private void applyBudgets(DockhandCommand command, CommandLine.ParseResult parsed) {
        key(
                "truncation.maxChars",
                "--max-output-chars",
                parsed,
                Optional.empty(),
                s -> truncation(s).maxChars(),
                value -> command.maxOutputChars = value,
                () -> command.maxOutputChars,
                ProjectRule.any());
        key(
                "truncation.maxLines",
                "--max-output-lines",
                parsed,
                Optional.empty(),
                s -> truncation(s).maxLines(),
                value -> command.maxOutputLines = value,
                () -> command.maxOutputLines,
                ProjectRule.any());
        key(
                "compression.threshold",
                "--compression-threshold",
                parsed,
                Optional.empty(),
                s -> compression(s).threshold(),
                value -> command.compressionThreshold = threshold(value),
                () -> command.compressionThreshold,
                ProjectRule.any());
        key(
                "compression.contextWindow",
                "--context-window",
                parsed,
                Optional.empty(),
                s -> compression(s).contextWindow(),
                value -> command.contextWindow = contextWindow(value),
                () -> command.contextWindow == null ? "from the model table" : command.contextWindow,
                ProjectRule.any());
        key(
                "webFetch.allowedHosts",
                null,
                parsed,
                Optional.empty(),
                s -> s.webFetch() == null ? null : s.webFetch().allowedHosts(),
                value -> command.webFetchAllowedHosts = List.copyOf(value),
                () -> command.webFetchAllowedHosts,
                ProjectRule.userOnly());
    }

    /**
     * The keys only the user's own file sets, whatever the folder's trust: which paths are protected (flags add to
     * the file's lists) and which folders are trusted. A project's value is ignored and reported.
     */
    private void applyUserOnly(DockhandCommand command) {
        Settings.ProtectedPathsBlock mine = user.settings().protectedPaths();
        if (mine != null) {
            command.protectedPathsAdded.addAll(0, mine.add() == null ? List.of() : mine.add());
            command.protectedPathsAllowed.addAll(0, mine.allow() == null ? List.of() : mine.allow());
        }
        String source = mine == null ? "command line or default" : user.file() + " and command line";
        entries.add(new Entry("protectedPaths.add", command.protectedPathsAdded.toString(), source));
        entries.add(new Entry("protectedPaths.allow", command.protectedPathsAllowed.toString(), source));
        if (project.settings().protectedPaths() != null) {
            userOnly.add("protectedPaths");
            entries.add(new Entry("protectedPaths", "(project value)", ignoredSource("only your own settings set it")));
        }
        if (project.settings().trustedFolders() != null) {
            userOnly.add("trustedFolders");
            entries.add(new Entry("trustedFolders", "(project value)", ignoredSource("only your own settings set it")));
        }
    }

    /**
     * One key: the command line wins, then the environment, then the project's file (when the folder is trusted or
     * {@code rule} says the value narrows), then the user's file, then the default.
     */
    <T> void key(
            String key,
            String option,
            CommandLine.ParseResult parsed,
            Optional<FromEnv> fromEnvironment,
            Function<Settings, T> read,
            Consumer<T> write,
            Supplier<Object> current,
            ProjectRule<T> rule) {
        if (option != null && parsed.hasMatchedOption(option)) {
            entries.add(new Entry(key, String.valueOf(current.get()), "command line (" + option + ")"));
            return;
        }
        if (fromEnvironment.isPresent()) {
            FromEnv variable = fromEnvironment.get();
            entries.add(new Entry(key, variable.value(), "environment (" + variable.name() + ")"));
            return;
        }
        T fromProject = read.apply(project.settings());
        T fromUser = read.apply(user.settings());
        Entry skipped = null;
        if (fromProject != null) {
            Object without = fromUser != null ? fromUser : current.get();
            if (trusted()) {
                set(project, key, fromProject, write, current);
                return;
            }
            if (rule.narrows(fromProject, without)) {
                set(project, key, rule.merged(fromProject, without), write, current);
                return;
            }
            ignored.add(key);
            String shown = String.valueOf(fromProject);
            ignoredValues.add(key + " = " + (shown.length() > 80 ? shown.substring(0, 80) + "…" : shown));
            skipped = new Entry(
                    key,
                    String.valueOf(fromProject),
                    ignoredSource("it widens what runs or where data goes, and this folder is not trusted"));
        }
        if (fromUser != null) {
            set(user, key, fromUser, write, current);
        } else {
            entries.add(new Entry(key, String.valueOf(current.get()), "default"));
        }
        if (skipped != null) {
            entries.add(skipped);
        }
    }

    private String ignoredSource(String why) {
        return "ignored from " + project.file() + ": " + why;
    }

    private <T> void set(Layer layer, String key, T value, Consumer<T> write, Supplier<Object> current) {
        try {
            write.accept(value);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, layer.file() + ": '" + key + "' " + e.getMessage());
        }
        entries.add(new Entry(key, String.valueOf(current.get()), layer.file().toString()));
    }

    private static ApprovalMode approvalMode(String value) {
        return ApprovalMode.parse(value)
                .orElseThrow(() -> new IllegalArgumentException(
                        "must be one of " + ApprovalMode.choices() + ", not '" + value + "'."));
    }

    private static double threshold(double value) {
        if (!(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(
                    "must be a fraction above 0 and at most 1, like 0.7, not " + value + ".");
        }
        return value;
    }

    private static long contextWindow(long value) {
        if (value < 1024) {
            throw new IllegalArgumentException("must be at least 1024 tokens, not " + value + ".");
        }
        return value;
    }

    static String size(String value) {
        if (DockerSettings.parseSize(value) == null) {
            throw new IllegalArgumentException("must be a size like 512m or 4g, not '" + value + "'.");
        }
        return value;
    }

    static Settings.Sandbox sandbox(Settings settings) {
        return settings.sandbox() == null
                ? new Settings.Sandbox(null, null, null, null, null, null, null)
                : settings.sandbox();
    }

    private static Settings.Tools tools(Settings settings) {
        return settings.tools() == null ? new Settings.Tools(null, null, null) : settings.tools();
    }

    private static Settings.Compression compression(Settings settings) {
        return settings.compression() == null ? new Settings.Compression(null, null) : settings.compression();
    }

    private static Settings.Truncation truncation(Settings settings) {
        return settings.truncation() == null ? new Settings.Truncation(null, null) : settings.truncation();
    }
}
