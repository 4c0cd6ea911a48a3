package dev.dockhand.cli.config;

import dev.dockhand.core.agent.ContextPolicy;
import dev.dockhand.core.model.Provider;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsFiles;
import dev.dockhand.sandbox.DockerSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * Every option of {@code dockhand}, each declared once: its flag, help and default for picocli
 * ({@link dev.dockhand.cli.CommandLineSpec} builds the command line from this table), its key in the settings files, its environment
 * variable, and what an untrusted project's value may do ({@link ProjectRule}). {@link Configuration} layers them all
 * the same way, {@code dockhand config} prints the same table, and the settings files are read against its keys
 * ({@link #schema}: core's {@link Settings} record holds only the blocks that are no option). Adding an option is one
 * entry here plus its use, read with {@link OptionValues#get}; OptionTest checks every entry is complete and in
 * docs/options.md.
 *
 * @param <T> the value the run reads
 */
public final class Option<T> {
    private static final List<Option<?>> ALL = new ArrayList<>();

    public static final Option<String> PROMPT = Option.<String>option("-p", "--prompt")
            .label("PROMPT")
            .help("Run once with this prompt and exit. Piped stdin is appended to it.")
            .add();
    public static final Option<String> PROVIDER = text("--provider", "NAME")
            .key("provider")
            .env("DOCKHAND_PROVIDER")
            .shown(command -> Objects.requireNonNullElse(command.get(Option.PROVIDER), "openai"))
            .rule(ProjectRule.userOnly())
            .help("openai | anthropic | gemini | ollama (default: $DOCKHAND_PROVIDER, else openai).")
            .add();
    /**
     * Prices over Dockhand's table. Cost is measured with them, so lower prices would let a run spend past the
     * user's limit: a project's count only in a trusted folder. Before the model, whose rule measures an untrusted
     * project's model by them.
     */
    static final Option<Map<String, Settings.Price>> PRICING = Option.<Map<String, Settings.Price>>settingOnly(
                    "pricing", Map.class, Settings.Price.class, Map.of())
            .fromSetting((Map<String, Settings.Price> value) -> {
                Pricing.with(value);
                return Map.copyOf(value);
            })
            .rule(ProjectRule.userOnly())
            .help("Prices over Dockhand's table, by model name: input, cachedInput, cacheWrite and output, in US"
                    + " dollars per million tokens.")
            .add();

    public static final Option<String> MODEL = text("--model", "[PROVIDER:]NAME")
            .key("model")
            .env("DOCKHAND_MODEL")
            // Another model of the same provider only (a prefix, or losing one, would switch provider, server and
            // key), and one no dearer than the model that applies without it: each kind of token is billed.
            .ruleFor(command -> (String value, Object without) -> without != null
                    && providerOf(value, command) == providerOf(String.valueOf(without), command)
                    && Pricing.with(command.get(Option.PRICING))
                            .noDearer(bareModel(value), bareModel(String.valueOf(without))))
            .help("Model name, optionally with its provider, like anthropic:claude-sonnet-4-5 (default:"
                    + " $DOCKHAND_MODEL).")
            .add();
    public static final Option<String> BASE_URL = text("--base-url", "URL")
            .key("baseUrl")
            // As ModelChoice decides it: a provider prefix on the model wins, so the variable is that provider's.
            .envFor(command -> providerOf(command.get(Option.MODEL), command).baseUrlVariable())
            .shown(command -> Objects.requireNonNullElse(
                    command.get(Option.BASE_URL),
                    providerOf(command.get(Option.MODEL), command).defaultBaseUrl()))
            .rule(ProjectRule.userOnly())
            .help("The provider's server (default: the provider's variable, like $OPENAI_BASE_URL, else its public"
                    + " API).")
            .add();
    /** The variable holding the API key; there is no flag, since keys never go on a command line. */
    static final Option<String> API_KEY_ENV = Option.<String>settingOnly("apiKeyEnv", String.class, null, null)
            .shown(command -> Objects.requireNonNullElse(
                    command.get(Option.API_KEY_ENV),
                    providerOf(command.get(Option.MODEL), command).keyVariable().orElse("(none)")))
            .rule(ProjectRule.userOnly())
            .help("The environment variable that holds the API key (default: the provider's, like $OPENAI_API_KEY).")
            .add();

    public static final Option<Integer> MAX_OUTPUT_TOKENS = Option.<Integer>typed(
                    "--max-output-tokens", "N", int.class, "8192")
            .help("Most tokens in one reply, for providers that need a limit (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<Integer> RETRIES = Option.<Integer>typed("--retries", "N", int.class, "3")
            .help("Retries of a request that failed with 429, 5xx or a network error before any of its reply arrived"
                    + " (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<String> RETRY_DELAY = text("--retry-delay", "DURATION")
            .byDefault("1s")
            .help("First wait before a retry, doubled each time (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<String> CONNECT_TIMEOUT = text("--connect-timeout", "DURATION")
            .byDefault("15s")
            .help("Time-out to connect to the provider (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<String> FIRST_BYTE_TIMEOUT = text("--first-byte-timeout", "DURATION")
            .byDefault("5m")
            .help("Time-out for the first byte of a reply (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<String> IDLE_TIMEOUT = text("--idle-timeout", "DURATION")
            .byDefault("2m")
            .help("Time-out between two events of a reply stream (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<ApprovalMode> APPROVAL_MODE = Option.<ApprovalMode>typed(
                    "--approval-mode", "MODE", ApprovalMode.class, "default")
            .converter(Option::approvalModeFlag)
            .key("approvalMode")
            .fromSetting((String value) -> approvalMode(value))
            .shown(command -> command.get(Option.APPROVAL_MODE).cliName())
            .rule((String value, Object without) -> ApprovalMode.parse(value)
                    .map(mode -> ApprovalMode.parse(String.valueOf(without))
                            .map(limit -> mode.compareTo(limit) <= 0)
                            .orElse(false))
                    .orElse(true))
            .help("plan | default | auto-edit | yolo (default: ${DEFAULT-VALUE}). plan runs only read-only tools;"
                    + " default asks before edits and commands; auto-edit runs edits and asks before commands; yolo"
                    + " asks nothing.")
            .add();
    public static final Option<Boolean> YOLO =
            flagOption("-y", "--yolo").help("Same as --approval-mode yolo.").add();
    public static final Option<Integer> MAX_TURNS = Option.<Integer>typed("--max-turns", "N", int.class, "100")
            .key("maxTurns")
            .rule(ProjectRule.<Integer>atMost())
            .help("Most model requests for one prompt (default: ${DEFAULT-VALUE}).")
            .add();
    /** A project may lower the limit, never raise it. */
    static final Option<Double> MAX_COST = Option.<Double>typed("--max-cost", "USD", Double.class, null)
            .key("maxCost")
            .fromSetting((Double value) -> maxCost(value))
            .rule(ProjectRule.<Double>atMost())
            .help("Stop the run before another request once it has cost more than this many US dollars (exit 58); the"
                    + " model needs a known price.")
            .add();

    /**
     * More reasoning is billed as output (Anthropic's high budget is 24,000 tokens a request): an untrusted project
     * may ask for less than the user's own effort, never for more or for one the user did not set.
     */
    static final Option<String> REASONING_EFFORT = text("--reasoning-effort", "LEVEL")
            .key("reasoningEffort")
            .fromSetting((String value) -> reasoningEffort(value))
            .rule((String value, Object without) -> {
                // Compared by name: the enum's class stays unloaded in runs that never use it.
                List<String> levels = List.of("low", "medium", "high");
                int limit = levels.indexOf(String.valueOf(without).strip().toLowerCase(Locale.ROOT));
                int asked = levels.indexOf(value.strip().toLowerCase(Locale.ROOT));
                return limit >= 0 && asked >= 0 && asked <= limit;
            })
            .shown(command ->
                    Objects.requireNonNullElse(command.get(Option.REASONING_EFFORT), "(the provider's default)"))
            .help("low | medium | high: how hard the model reasons before it answers (default: the provider's).")
            .add();

    public static final Option<String> SANDBOX = text("--sandbox", "KIND")
            .byDefault("docker")
            .key("sandbox.kind")
            .rule((String value, Object without) -> value.strip().equals("docker") || value.equals(without))
            .help("Where commands run: docker = in a container that sees only this folder, with no network"
                    + " (default); none = directly on this machine, unconfined.")
            .add();
    public static final Option<String> SANDBOX_IMAGE = text("--sandbox-image", "IMAGE")
            .byDefault("dockhand-sandbox:latest")
            .key("sandbox.image")
            .rule(ProjectRule.userOnly())
            .help("Image of the sandbox container (default: ${DEFAULT-VALUE}; build it with"
                    + " scripts/build-sandbox-image.sh).")
            .add();
    public static final Option<String> SANDBOX_NETWORK = text("--sandbox-network", "MODE")
            .byDefault("none")
            .key("sandbox.network")
            .rule((String value, Object without) -> value.strip().equals("none") || value.equals(without))
            .help("Docker network of the sandbox (default: ${DEFAULT-VALUE}, no network at all).")
            .add();
    public static final Option<String> SANDBOX_MEMORY = text("--sandbox-memory", "SIZE")
            .byDefault("2g")
            .key("sandbox.memory")
            .fromSetting((String value) -> size(value))
            .rule((String value, Object without) -> Objects.requireNonNullElse(
                            DockerSettings.parseSize(value), Long.MAX_VALUE)
                    <= Objects.requireNonNullElse(DockerSettings.parseSize(String.valueOf(without)), Long.MAX_VALUE))
            .help("Memory limit of the sandbox, like 512m or 4g (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<Double> SANDBOX_CPUS = Option.<Double>typed("--sandbox-cpus", "N", double.class, "2")
            .key("sandbox.cpus")
            .rule(ProjectRule.<Double>atMost())
            .help("CPUs the sandbox may use (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<Long> SANDBOX_PIDS = Option.<Long>typed("--sandbox-pids", "N", long.class, "512")
            .key("sandbox.pids")
            .rule(ProjectRule.<Long>atMost())
            .help("Most processes in the sandbox at once (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<List<String>> SANDBOX_ENV = list("--sandbox-env", "NAME", String.class, false)
            .key("sandbox.env")
            .fromSetting((List<String> value) -> new ArrayList<>(value))
            .rule((List<String> value, Object without) -> without instanceof List<?> names && names.containsAll(value))
            .help("Pass this variable of your environment into the sandbox (repeatable); none is passed otherwise.")
            .add();
    public static final Option<List<Path>> INCLUDE_DIRECTORY = list("--include-directory", "DIR", Path.class, false)
            .help("Also let the tools read and change files in DIR (repeatable). By default only the current folder"
                    + " is reachable.")
            .add();
    /**
     * Longer tool results and later compression make every request bigger, and each is billed: an untrusted project
     * may lower these limits, never raise them.
     */
    public static final Option<Integer> MAX_OUTPUT_CHARS = Option.<Integer>typed(
                    "--max-output-chars", "N", int.class, "30000")
            .key("truncation.maxChars")
            .rule(ProjectRule.<Integer>atMost())
            .help("A tool result longer than this reaches the model as head and tail (default: ${DEFAULT-VALUE}).")
            .add();

    public static final Option<Integer> MAX_OUTPUT_LINES = Option.<Integer>typed(
                    "--max-output-lines", "N", int.class, "1000")
            .key("truncation.maxLines")
            .rule(ProjectRule.<Integer>atMost())
            .help("Likewise, in lines (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<Double> COMPRESSION_THRESHOLD = Option.<Double>typed(
                    "--compression-threshold", "FRACTION", double.class, "0.7")
            .key("compression.threshold")
            .fromSetting((Double value) -> threshold(value))
            .rule(ProjectRule.<Double>atMost())
            .help("Summarise older turns when a request would fill this much of the model's context window"
                    + " (default: ${DEFAULT-VALUE}).")
            .add();
    public static final Option<Long> CONTEXT_WINDOW = Option.<Long>typed("--context-window", "TOKENS", Long.class, null)
            .key("compression.contextWindow")
            .fromSetting((Long value) -> contextWindow(value))
            // A window larger than the model's would put compression off until requests fail for their length.
            .ruleFor(command -> (Long value, Object without) ->
                    value <= (without instanceof Number limit ? limit.longValue() : tableWindow(command)))
            .shown(command -> Objects.requireNonNullElse(command.get(Option.CONTEXT_WINDOW), "from the model table"))
            .help("The model's context window, for models Dockhand's table does not know (default: from the table,"
                    + " else 128000).")
            .add();
    public static final Option<String> OUTPUT_FORMAT = text("--output-format", "FORMAT")
            .byDefault("text")
            .help("text | json | stream-json: json prints one result object at the end, stream-json one JSON object"
                    + " per line as things happen (default: ${DEFAULT-VALUE}).")
            .add();
    /** Calls that run without a question widen what runs: an untrusted project may only name fewer. */
    public static final Option<List<String>> ALLOWED_TOOLS = list("--allowed-tools", "NAMES", String.class, true)
            .key("tools.allowed")
            .fromSetting((List<String> value) -> new ArrayList<>(value))
            .rule(ProjectRule.within())
            .help("Let calls of these tools run without a question, in every approval mode but plan"
                    + " (comma-separated).")
            .add();

    static final Option<List<String>> TOOLS = list("--tools", "NAMES", String.class, true)
            .key("tools.core")
            .fromSetting((List<String> value) -> new ArrayList<>(value))
            .rule(ProjectRule.offered())
            .help("Offer the model only these tools (comma-separated).")
            .add();
    public static final Option<List<String>> EXCLUDED_TOOLS = list("--excluded-tools", "NAMES", String.class, true)
            .key("tools.excluded")
            .fromSetting((List<String> value) -> new ArrayList<>(value))
            .rule(ProjectRule.withheld())
            .help("Do not offer these tools (comma-separated).")
            .add();
    /** Hosts web_fetch may reach although they are internal; no flag. */
    static final Option<List<String>> WEB_FETCH_ALLOWED_HOSTS = Option.<List<String>>settingOnly(
                    "webFetch.allowedHosts", List.class, String.class, List.of())
            .fromSetting((List<String> value) -> List.copyOf(value))
            .rule(ProjectRule.userOnly())
            .help("Internal hosts, addresses and CIDR blocks web_fetch may reach, which it refuses by default.")
            .add();

    public static final Option<String> MAX_WALL_TIME = text("--max-wall-time", "DURATION")
            .help("Stop the run after this long, like 30m (exit 55).")
            .add();
    public static final Option<Integer> MAX_TOOL_CALLS = Option.<Integer>typed(
                    "--max-tool-calls", "N", Integer.class, null)
            .help("Stop the run when the model asks for more tool calls than this (exit 56).")
            .add();
    static final Option<String> SUMMARY_FILE = text("--summary-file", "PATH")
            .help("With -p, write a short Markdown report of the run there at the end, also when it fails (for"
                    + " $GITHUB_STEP_SUMMARY or a job artifact).")
            .add();
    /** Adds a file's mcpServers for this run; the user named it, so it counts in any folder. */
    static final Option<String> MCP_CONFIG = text("--mcp-config", "FILE")
            .help("Add the MCP servers of this settings file (its mcpServers) for this run.")
            .add();

    static final Option<Boolean> SHOW_THINKING = flagOption("--show-thinking")
            .help("With -p, print the model's reasoning on stderr as it streams.")
            .add();
    public static final Option<String> RESUME = text("--resume", "ID")
            .arity("0..1", "latest")
            .help("Continue a session of this folder: its id (see dockhand sessions) or latest.")
            .add();
    public static final Option<Boolean> TRUST_PROJECT = flagOption("--trust-project")
            .help("Apply this folder's .dockhand/settings.json in full for this run, as if you trusted the folder.")
            .add();
    /** Only the user's own settings add to these ({@code protectedPaths}), trusted folder or not: see Configuration. */
    static final Option<List<String>> PROTECTED_PATH = list("--protected-path", "PATH", String.class, false)
            .help("Protect PATH too (relative to the workspace; repeatable): changing it needs your explicit yes, and"
                    + " the Docker sandbox mounts it read-only.")
            .add();

    static final Option<List<String>> ALLOW_PROTECTED_PATH = list("--allow-protected-path", "PATH", String.class, false)
            .help("Let the model change this protected path, like .git/hooks (repeatable).")
            .add();
    public static final Option<Boolean> STACKTRACE =
            flagOption("--stacktrace").help("Show stack traces of failures.").add();

    public final List<String> names;
    public final String label;
    public final Class<?> type;
    public final Class<?> element;
    public final boolean commaSeparated;
    public final String defaultValue;
    public final String arity;
    public final String fallback;
    public final CommandLine.ITypeConverter<?> converter;
    public final String help;
    /** The settings files' key, dotted for nested blocks ({@code sandbox.pids}); null when files cannot set it. */
    public final String key;

    public final Object initial;
    private final Function<OptionValues, String> environmentVariable;
    private final Function<OptionValues, Object> shown;
    private final Function<OptionValues, ProjectRule<Object>> rule;
    private final UnaryOperator<Object> fromSetting;

    private Option(Builder<T> b) {
        names = b.names;
        label = b.label;
        type = b.type;
        element = b.element;
        commaSeparated = b.commaSeparated;
        defaultValue = b.defaultValue;
        arity = b.arity;
        fallback = b.fallback;
        converter = b.converter;
        help = b.help;
        key = b.key;
        initial = b.initial;
        environmentVariable = b.environmentVariable;
        shown = b.shown != null ? b.shown : command -> command.get(this);
        rule = b.rule;
        fromSetting = b.fromSetting;
    }

    /** Every option, in the order of {@code --help} and of {@code dockhand config}. */
    public static List<Option<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    /** The longest flag, as picocli names the option (and {@code dockhand config} its source); null without one. */
    public String flag() {
        return names.isEmpty() ? null : names.get(names.size() - 1);
    }

    /** The environment variable that sets it, given what the options before it resolved to; null when none does. */
    String environmentVariable(OptionValues command) {
        return environmentVariable == null ? null : environmentVariable.apply(command);
    }

    /** The value as {@code dockhand config} shows it, and as an untrusted project's value is measured against. */
    Object shown(OptionValues command) {
        return shown.apply(command);
    }

    ProjectRule<Object> rule(OptionValues command) {
        return rule.apply(command);
    }

    /** The run's value for a settings file's value; throws IllegalArgumentException saying what is wrong with it. */
    @SuppressWarnings("unchecked")
    T fromSetting(Object value) {
        return (T) fromSetting.apply(value);
    }

    /** The environment's text as the run's value. */
    @SuppressWarnings("unchecked")
    T fromEnvironment(String value) {
        return (T) value;
    }

    /** This option's value in {@code settings}, null when the file leaves it out. */
    Object read(Settings settings) {
        return settings.options().get(key);
    }

    /** The option keys of the settings files, with their types: what a file may hold besides core's blocks. */
    public static List<SettingsFiles.Key> schema() {
        List<SettingsFiles.Key> keys = new ArrayList<>();
        for (Option<?> option : ALL) {
            if (option.key != null) {
                keys.add(new SettingsFiles.Key(option.key, settingType(option.type), option.element));
            }
        }
        return keys;
    }

    /** The type of a key's value in a file: the option's type, boxed, and an enum's constant as its text. */
    private static Class<?> settingType(Class<?> type) {
        if (type == int.class) {
            return Integer.class;
        }
        if (type == long.class) {
            return Long.class;
        }
        if (type == double.class) {
            return Double.class;
        }
        if (type == boolean.class) {
            return Boolean.class;
        }
        // The option's fromSetting reads the text (approval modes).
        return type.isEnum() ? String.class : type;
    }

    static Provider providerOf(String model, OptionValues command) {
        String providerName = Objects.requireNonNullElse(command.get(PROVIDER), "openai");
        return ModelChoice.prefixOf(model == null ? "" : model)
                .orElse(Provider.parse(providerName).orElse(Provider.OPENAI));
    }

    private static Builder<String> text(String name, String label) {
        return Option.<String>option(name).label(label).type(String.class);
    }

    private static <T> Builder<T> typed(String name, String label, Class<?> type, String defaultValue) {
        return Option.<T>option(name).label(label).type(type).byDefault(defaultValue);
    }

    private static <E> Builder<List<E>> list(String name, String label, Class<E> element, boolean commaSeparated) {
        Builder<List<E>> builder = Option.<List<E>>option(name).label(label).type(List.class);
        builder.element = element;
        builder.commaSeparated = commaSeparated;
        return builder;
    }

    private static Builder<Boolean> flagOption(String... names) {
        return Option.<Boolean>option(names).type(boolean.class);
    }

    private static <T> Builder<T> option(String... names) {
        Builder<T> builder = new Builder<>();
        builder.names = List.of(names);
        return builder;
    }

    private static <T> Builder<T> settingOnly(String key, Class<?> type, Class<?> element, T initial) {
        Builder<T> builder = new Builder<>();
        builder.names = List.of();
        builder.key = key;
        builder.type = type;
        builder.element = element;
        builder.initial = initial;
        return builder;
    }

    /** One entry of the table while it is written. */
    private static final class Builder<T> {
        public List<String> names;
        public String label;
        public Class<?> type = String.class;
        public Class<?> element;
        public boolean commaSeparated;
        public String defaultValue;
        public String arity;
        public String fallback;
        public CommandLine.ITypeConverter<?> converter;
        public String help = "";
        String key;
        public Object initial;
        Function<OptionValues, String> environmentVariable;
        Function<OptionValues, Object> shown;
        Function<OptionValues, ProjectRule<Object>> rule = command -> ProjectRule.any();
        UnaryOperator<Object> fromSetting = UnaryOperator.identity();

        Builder<T> label(String value) {
            label = value;
            return this;
        }

        Builder<T> type(Class<?> value) {
            type = value;
            return this;
        }

        Builder<T> byDefault(String value) {
            defaultValue = value;
            return this;
        }

        Builder<T> arity(String value, String fallbackValue) {
            arity = value;
            fallback = fallbackValue;
            return this;
        }

        Builder<T> converter(CommandLine.ITypeConverter<?> value) {
            converter = value;
            return this;
        }

        Builder<T> help(String value) {
            help = value;
            return this;
        }

        Builder<T> key(String value) {
            key = value;
            return this;
        }

        Builder<T> env(String variable) {
            environmentVariable = command -> variable;
            return this;
        }

        Builder<T> envFor(Function<OptionValues, String> variable) {
            environmentVariable = variable;
            return this;
        }

        Builder<T> shown(Function<OptionValues, Object> value) {
            shown = value;
            return this;
        }

        @SuppressWarnings("unchecked")
        <S> Builder<T> rule(ProjectRule<S> value) {
            rule = command -> (ProjectRule<Object>) value;
            return this;
        }

        @SuppressWarnings("unchecked")
        <S> Builder<T> ruleFor(Function<OptionValues, ProjectRule<S>> value) {
            rule = command -> (ProjectRule<Object>) value.apply(command);
            return this;
        }

        @SuppressWarnings("unchecked")
        <S> Builder<T> fromSetting(Function<S, ?> value) {
            fromSetting = setting -> value.apply((S) setting);
            return this;
        }

        Option<T> add() {
            Option<T> option = new Option<>(this);
            ALL.add(option);
            return option;
        }
    }

    private static ApprovalMode approvalModeFlag(String value) {
        return ApprovalMode.parse(value)
                .orElseThrow(() -> new CommandLine.TypeConversionException(
                        "'" + value + "' is not an approval mode; use one of " + ApprovalMode.choices()));
    }

    private static ApprovalMode approvalMode(String value) {
        return ApprovalMode.parse(value)
                .orElseThrow(() -> new IllegalArgumentException(
                        "must be one of " + ApprovalMode.choices() + ", not '" + value + "'."));
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

    private static double threshold(double value) {
        if (!(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(
                    "must be a fraction above 0 and at most 1, like 0.7, not " + value + ".");
        }
        return value;
    }

    /** The model table's window for the model the options name, else the window it assumes for unknown models. */
    private static long tableWindow(OptionValues command) {
        String model = bareModel(Objects.requireNonNullElse(command.get(MODEL), ""));
        return ContextPolicy.knownWindow(model).orElse(ContextPolicy.FALLBACK_WINDOW);
    }

    /** A model's name without the provider it may start with. */
    private static String bareModel(String model) {
        return ModelChoice.nameOf(model.strip());
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
}
