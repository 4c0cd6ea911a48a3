package dev.dockhand.cli;

import dev.dockhand.core.model.Provider;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import dev.dockhand.sandbox.DockerSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 */
final class Configuration {
    private final Layer project;
    private final Layer user;
    private final List<Entry> entries = new ArrayList<>();

    /** One setting's effective value and where it came from. */
    record Entry(String key, String value, String source) {}

    private record Layer(Path file, Settings settings) {}

    /** A value taken from an environment variable. */
    private record FromEnv(String name, String value) {}

    private Configuration(Layer project, Layer user) {
        this.project = project;
        this.user = user;
    }

    /** Reads both files; a bad one stops the run with exit 52 and one sentence. */
    static Configuration load(CliEnvironment environment) {
        Path projectFile = environment.workingDirectory().resolve(".dockhand/settings.json");
        Path userFile = environment.home().resolve("settings.json");
        try {
            return new Configuration(
                    new Layer(projectFile, SettingsFiles.read(projectFile)),
                    new Layer(userFile, SettingsFiles.read(userFile)));
        } catch (SettingsException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
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
        return List.copyOf(entries);
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
                () -> command.provider == null ? "openai" : command.provider);
        Optional<String> modelEnv = environment.get("DOCKHAND_MODEL");
        key(
                "model",
                "--model",
                parsed,
                modelEnv.map(v -> new FromEnv("DOCKHAND_MODEL", v)),
                Settings::model,
                value -> command.model = value,
                () -> command.model);
        // As ModelChoice decides it: a provider prefix on the model wins, so the base URL shown is that provider's.
        String providerName = command.provider != null ? command.provider : providerEnv.orElse("openai");
        String modelName = command.model != null ? command.model : modelEnv.orElse("");
        Provider provider = ModelChoice.prefixOf(modelName)
                .orElse(Provider.parse(providerName).orElse(Provider.OPENAI));
        key(
                "baseUrl",
                "--base-url",
                parsed,
                environment.get(provider.baseUrlVariable()).map(v -> new FromEnv(provider.baseUrlVariable(), v)),
                Settings::baseUrl,
                value -> command.baseUrl = value,
                () -> command.baseUrl == null ? provider.defaultBaseUrl() : command.baseUrl);
        key(
                "apiKeyEnv",
                null,
                parsed,
                Optional.empty(),
                Settings::apiKeyEnv,
                value -> command.apiKeyEnv = value,
                () -> command.apiKeyEnv == null ? provider.keyVariable().orElse("(none)") : command.apiKeyEnv);
        applyRun(command, parsed);
        applySandbox(command, parsed);
        applyTools(command, parsed);
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
                () -> command.approvalMode.cliName());
        key(
                "maxTurns",
                "--max-turns",
                parsed,
                Optional.empty(),
                Settings::maxTurns,
                value -> command.maxTurns = value,
                () -> command.maxTurns);
    }

    /** The sandbox block. */
    private void applySandbox(DockhandCommand command, CommandLine.ParseResult parsed) {
        key(
                "sandbox.kind",
                "--sandbox",
                parsed,
                Optional.empty(),
                s -> sandbox(s).kind(),
                value -> command.sandbox = value,
                () -> command.sandbox);
        key(
                "sandbox.image",
                "--sandbox-image",
                parsed,
                Optional.empty(),
                s -> sandbox(s).image(),
                value -> command.sandboxImage = value,
                () -> command.sandboxImage);
        key(
                "sandbox.network",
                "--sandbox-network",
                parsed,
                Optional.empty(),
                s -> sandbox(s).network(),
                value -> command.sandboxNetwork = value,
                () -> command.sandboxNetwork);
        key(
                "sandbox.memory",
                "--sandbox-memory",
                parsed,
                Optional.empty(),
                s -> sandbox(s).memory(),
                value -> command.sandboxMemory = size(value),
                () -> command.sandboxMemory);
        key(
                "sandbox.cpus",
                "--sandbox-cpus",
                parsed,
                Optional.empty(),
                s -> sandbox(s).cpus(),
                value -> command.sandboxCpus = value,
                () -> command.sandboxCpus);
        key(
                "sandbox.pids",
                "--sandbox-pids",
                parsed,
                Optional.empty(),
                s -> sandbox(s).pids(),
                value -> command.sandboxPids = value,
                () -> command.sandboxPids);
        key(
                "sandbox.env",
                "--sandbox-env",
                parsed,
                Optional.empty(),
                s -> sandbox(s).env(),
                value -> command.sandboxEnv = new ArrayList<>(value),
                () -> command.sandboxEnv);
    }

    /** What the model is offered and how much of each result it reads; when the conversation is compressed. */
    private void applyTools(DockhandCommand command, CommandLine.ParseResult parsed) {
        key(
                "tools.allowed",
                "--allowed-tools",
                parsed,
                Optional.empty(),
                s -> tools(s).allowed(),
                value -> command.allowedTools = new ArrayList<>(value),
                () -> command.allowedTools);
        key(
                "tools.excluded",
                "--excluded-tools",
                parsed,
                Optional.empty(),
                s -> tools(s).excluded(),
                value -> command.excludedTools = new ArrayList<>(value),
                () -> command.excludedTools);
        key(
                "truncation.maxChars",
                "--max-output-chars",
                parsed,
                Optional.empty(),
                s -> truncation(s).maxChars(),
                value -> command.maxOutputChars = value,
                () -> command.maxOutputChars);
        key(
                "truncation.maxLines",
                "--max-output-lines",
                parsed,
                Optional.empty(),
                s -> truncation(s).maxLines(),
                value -> command.maxOutputLines = value,
                () -> command.maxOutputLines);
        key(
                "compression.threshold",
                "--compression-threshold",
                parsed,
                Optional.empty(),
                s -> compression(s).threshold(),
                value -> command.compressionThreshold = threshold(value),
                () -> command.compressionThreshold);
        key(
                "compression.contextWindow",
                "--context-window",
                parsed,
                Optional.empty(),
                s -> compression(s).contextWindow(),
                value -> command.contextWindow = contextWindow(value),
                () -> command.contextWindow == null ? "from the model table" : command.contextWindow);
    }

    private <T> void key(
            String key,
            String option,
            CommandLine.ParseResult parsed,
            Optional<FromEnv> fromEnvironment,
            Function<Settings, T> read,
            Consumer<T> write,
            Supplier<Object> current) {
        if (option != null && parsed.hasMatchedOption(option)) {
            entries.add(new Entry(key, String.valueOf(current.get()), "command line (" + option + ")"));
            return;
        }
        if (fromEnvironment.isPresent()) {
            FromEnv variable = fromEnvironment.get();
            entries.add(new Entry(key, variable.value(), "environment (" + variable.name() + ")"));
            return;
        }
        for (Layer layer : List.of(project, user)) {
            T value = read.apply(layer.settings());
            if (value != null) {
                try {
                    write.accept(value);
                } catch (IllegalArgumentException e) {
                    throw new DockhandException(
                            ExitCodes.CONFIGURATION, layer.file() + ": '" + key + "' " + e.getMessage());
                }
                entries.add(new Entry(
                        key, String.valueOf(current.get()), layer.file().toString()));
                return;
            }
        }
        entries.add(new Entry(key, String.valueOf(current.get()), "default"));
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

    private static String size(String value) {
        if (DockerSettings.parseSize(value) == null) {
            throw new IllegalArgumentException("must be a size like 512m or 4g, not '" + value + "'.");
        }
        return value;
    }

    private static Settings.Sandbox sandbox(Settings settings) {
        return settings.sandbox() == null
                ? new Settings.Sandbox(null, null, null, null, null, null, null)
                : settings.sandbox();
    }

    private static Settings.Tools tools(Settings settings) {
        return settings.tools() == null ? new Settings.Tools(null, null) : settings.tools();
    }

    private static Settings.Compression compression(Settings settings) {
        return settings.compression() == null ? new Settings.Compression(null, null) : settings.compression();
    }

    private static Settings.Truncation truncation(Settings settings) {
        return settings.truncation() == null ? new Settings.Truncation(null, null) : settings.truncation();
    }
}
