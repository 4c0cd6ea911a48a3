package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
public final class Configuration {
    private final Layer project;
    private final Layer user;
    private final FolderTrust.Decision decision;
    private final boolean trustedForThisRun;
    private final List<Entry> entries = new ArrayList<>();
    private final List<String> ignored = new ArrayList<>();
    private final List<String> ignoredValues = new ArrayList<>();
    private final List<String> userOnly = new ArrayList<>();

    /** One setting's effective value and where it came from. */
    public record Entry(String key, String value, String source) {}

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
    public static Configuration load(CliEnvironment environment, boolean trustProject) {
        Path projectFile = environment.workingDirectory().resolve(".dockhand/settings.json");
        Path userFile = environment.settingsHome().resolve("settings.json");
        try {
            Settings userSettings = SettingsFiles.read(userFile, Option.schema());
            return new Configuration(
                    new Layer(projectFile, SettingsFiles.read(projectFile, Option.schema())),
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
    public Optional<String> notice() {
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

    /** A line for each settings file that may still mean the old {@code tools.allowed} ({@link AllowedToolsMeaning}). */
    public List<String> meaningWarnings() {
        List<String> lines = new ArrayList<>();
        AllowedToolsMeaning.warning(user.file(), user.settings()).ifPresent(lines::add);
        AllowedToolsMeaning.warning(project.file(), project.settings()).ifPresent(lines::add);
        return lines;
    }

    /** Fills the options the command line did not give from the environment and the files. */
    public void apply(OptionValues command, CommandLine.ParseResult parsed, CliEnvironment environment) {
        walk(command, parsed, environment);
    }

    /** Applies the files as {@link #apply} does, and returns every value's effective value and source. */
    public List<Entry> describe(OptionValues command, CommandLine.ParseResult parsed, CliEnvironment environment) {
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

    /** Layers every option that has a settings key, in the table's order, and records every value's source. */
    private void walk(OptionValues command, CommandLine.ParseResult parsed, CliEnvironment environment) {
        for (Option<?> option : Option.all()) {
            if (option.key != null) {
                key(option, command, parsed, environment);
            }
        }
        if (!parsed.hasMatchedOption("--allowed-tools")) {
            // Naming web_fetch lets fetches run unattended: only the user's own list (or a trusted folder's) counts.
            Object fromProject = Option.ALLOWED_TOOLS.read(project.settings());
            Object named = fromProject != null
                    ? (trusted() ? fromProject : List.of())
                    : Option.ALLOWED_TOOLS.read(user.settings());
            command.fetchNamedByUser = named instanceof List<?> names && names.contains("web_fetch");
        }
        applyUserOnly(command);
        McpSettings.apply(project.settings(), user.settings(), trusted(), command, ignored);
        PermissionSettings.apply(
                project.settings(),
                project.file(),
                user.settings(),
                user.file(),
                project.file().getParent().getParent(),
                trusted(),
                command,
                ignored,
                ignoredValues,
                userOnly);
        HookSettings.apply(
                project.settings(), project.file(), user.settings(), user.file(), trusted(), command, ignored);
        int agentFiles = dev.dockhand.cli.agents.AgentFiles.count(project.file().resolveSibling("agents"));
        if (agentFiles > 0 && !trusted()) {
            ignored.add(".dockhand/agents");
            ignoredValues.add(".dockhand/agents = " + agentFiles + " agent definition file(s)");
        }
        command.redaction = RedactionSettings.of(
                user.settings().redaction(),
                user.file(),
                project.settings().redaction(),
                project.file(),
                trusted(),
                userOnly);
        McpSettings.addConfigFile(command.get(Option.MCP_CONFIG), command, environment);
    }

    /**
     * The keys only the user's own file sets, whatever the folder's trust: which paths are protected (flags add to
     * the file's lists) and which folders are trusted. A project's value is ignored and reported.
     */
    private void applyUserOnly(OptionValues command) {
        Settings.ProtectedPathsBlock mine = user.settings().protectedPaths();
        if (mine != null) {
            command.get(Option.PROTECTED_PATH).addAll(0, mine.add() == null ? List.of() : mine.add());
            command.get(Option.ALLOW_PROTECTED_PATH).addAll(0, mine.allow() == null ? List.of() : mine.allow());
        }
        String source = mine == null ? "command line or default" : user.file() + " and command line";
        entries.add(new Entry(
                "protectedPaths.add", command.get(Option.PROTECTED_PATH).toString(), source));
        entries.add(new Entry(
                "protectedPaths.allow", command.get(Option.ALLOW_PROTECTED_PATH).toString(), source));
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
     * One option: the command line wins, then the environment, then the project's file (when the folder is trusted
     * or the option's {@link ProjectRule} says the value narrows), then the user's file, then the default.
     */
    private <T> void key(
            Option<T> option, OptionValues command, CommandLine.ParseResult parsed, CliEnvironment environment) {
        String key = option.key;
        if (option.flag() != null && parsed.hasMatchedOption(option.flag())) {
            entries.add(new Entry(key, String.valueOf(option.shown(command)), "command line (" + option.flag() + ")"));
            return;
        }
        String variable = option.environmentVariable(command);
        Optional<String> fromEnvironment = variable == null ? Optional.empty() : environment.get(variable);
        if (fromEnvironment.isPresent()) {
            command.set(option, option.fromEnvironment(fromEnvironment.get()));
            entries.add(new Entry(key, fromEnvironment.get(), "environment (" + variable + ")"));
            return;
        }
        Object fromProject = option.read(project.settings());
        Object fromUser = option.read(user.settings());
        Entry skipped = null;
        if (fromProject != null) {
            Object without = fromUser != null ? fromUser : option.shown(command);
            ProjectRule<Object> rule = option.rule(command);
            if (trusted()) {
                set(project, option, fromProject, command);
                return;
            }
            if (rule.narrows(fromProject, without)) {
                set(project, option, rule.merged(fromProject, without), command);
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
            set(user, option, fromUser, command);
        } else {
            entries.add(new Entry(key, String.valueOf(option.shown(command)), "default"));
        }
        if (skipped != null) {
            entries.add(skipped);
        }
    }

    private String ignoredSource(String why) {
        return "ignored from " + project.file() + ": " + why;
    }

    private <T> void set(Layer layer, Option<T> option, Object value, OptionValues command) {
        try {
            command.set(option, option.fromSetting(value));
        } catch (IllegalArgumentException e) {
            throw new DockhandException(
                    ExitCodes.CONFIGURATION, layer.file() + ": '" + option.key + "' " + e.getMessage());
        }
        entries.add(new Entry(
                option.key, String.valueOf(option.shown(command)), layer.file().toString()));
    }
}
