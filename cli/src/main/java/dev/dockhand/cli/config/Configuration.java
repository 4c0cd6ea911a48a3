package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.settings.FrontMatter;
import dev.dockhand.core.settings.FrontMatterException;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
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

    /** A hook's command or a server's line in the trust question is cut only past this: its end may be the point. */
    private static final int RUNNER_CHARS = 400;

    /** As CustomCommands reads a project's command files. */
    private static final int COMMAND_DEPTH = 4;

    private static final int COMMAND_FILES = 500;
    private static final long COMMAND_BYTES = 64 * 1024;

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
        // They quote the files' lists, which a cloned repository wrote.
        return lines.stream().map(Rendering::printable).toList();
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
        listRunners(
                McpSettings.described(user.settings().mcpServers(), false),
                McpSettings.described(project.settings().mcpServers(), true));
        listRunners(
                HookSettings.described(user.settings().hooks()),
                HookSettings.described(project.settings().hooks()));
        int agentFiles = dev.dockhand.cli.agents.AgentFiles.count(project.file().resolveSibling("agents"));
        if (agentFiles > 0) {
            projectFiles(".dockhand/agents", agentFiles + " agent definition file(s)");
        }
        if (agentFiles > 0 && !trusted()) {
            ignored.add(".dockhand/agents");
        }
        int commandFiles = widenedCommands(project.file().resolveSibling("commands"));
        if (commandFiles > 0) {
            // Not a reason to ask on its own: running such a command says what it did not apply, and why.
            projectFiles(".dockhand/commands", commandFiles + " command file(s) that set allowed-tools or a model");
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
            ignoredValues.add(key + " = " + (shown.length() > 80 ? Utf16.head(shown, 80) + "…" : shown));
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

    /**
     * Hooks or MCP servers, each listed: the user's, then the project's, which run only in a trusted folder. Each runs
     * on this machine, outside the sandbox, so the trust question names every one, with its command or URL.
     */
    private void listRunners(List<Map.Entry<String, String>> mine, List<Map.Entry<String, String>> theirs) {
        mine.forEach(line -> entries.add(
                new Entry(line.getKey(), line.getValue(), user.file().toString())));
        for (Map.Entry<String, String> line : theirs) {
            if (trusted()) {
                entries.add(
                        new Entry(line.getKey(), line.getValue(), project.file().toString()));
            } else {
                ignoredValues.add(line.getKey() + " = " + cut(line.getValue(), RUNNER_CHARS));
                entries.add(new Entry(
                        line.getKey(),
                        line.getValue(),
                        ignoredSource("it runs programs in your name, and this folder is not trusted")));
            }
        }
    }

    /** The project's own files that widen what runs ({@code .dockhand/agents}), counted. */
    private void projectFiles(String folder, String count) {
        if (trusted()) {
            entries.add(new Entry(
                    folder,
                    count,
                    project.file().getParent().getParent().resolve(folder).toString()));
        } else {
            ignoredValues.add(folder + " = " + count);
            entries.add(
                    new Entry(folder, count, ignoredSource("they widen what runs, and this folder is not trusted")));
        }
    }

    /**
     * How many of the project's command files set {@code allowed-tools} or {@code model}, which apply only in a trusted
     * folder; read as CustomCommands reads them (the same limits), a file it would skip not counted.
     */
    private static int widenedCommands(Path folder) {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        List<Path> files;
        try (Stream<Path> walked = Files.walk(folder, COMMAND_DEPTH)) {
            files = walked.filter(file -> file.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .limit(COMMAND_FILES)
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
        int count = 0;
        for (Path file : files) {
            try {
                if (!Files.isRegularFile(file) || Files.size(file) > COMMAND_BYTES) {
                    continue;
                }
                FrontMatter front = FrontMatter.parse(Files.readString(file), Set.of("argument-hint", "description"));
                if (!front.list("allowed-tools").isEmpty()
                        || front.text("model").isPresent()) {
                    count++;
                }
            } catch (IOException | FrontMatterException | RuntimeException e) {
                // A file CustomCommands cannot read either: it is skipped there, with a sentence, and widens nothing.
            }
        }
        return count;
    }

    private static String cut(String text, int most) {
        return text.length() > most ? Utf16.head(text, most) + "… (" + text.length() + " characters)" : text;
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
