package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.Provider;
import dev.dockhand.core.model.RetryPolicy;
import dev.dockhand.core.model.RetryingModelClient;
import dev.dockhand.core.model.Timeouts;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which model, at which provider, with which key and server, and how patiently: resolved from options and
 * environment and checked, so a missing key or a bad URL stops the run with one sentence before anything is sent.
 */
public record ModelChoice(
        Provider provider,
        String model,
        String baseUrl,
        String apiKey,
        Timeouts timeouts,
        RetryPolicy retries,
        int maxOutputTokens) {

    static ModelChoice from(OptionValues command, CliEnvironment environment) {
        // Configuration has layered the options: flag, environment, settings files, default.
        String named = Objects.requireNonNullElse(command.get(Option.MODEL), "").strip();
        Provider provider = provider(command);
        Optional<Provider> prefix = prefixOf(named);
        if (prefix.isPresent()) {
            provider = prefix.get();
            named = nameOf(named);
        }
        if (named.isEmpty()) {
            throw new DockhandException(
                    ExitCodes.CONFIGURATION,
                    "No model is set: pass --model NAME or set DOCKHAND_MODEL (for example gpt-4.1).");
        }
        provider = provider.forModel(named);
        String apiKey = apiKey(provider, command.get(Option.API_KEY_ENV), environment);
        String baseUrl = baseUrl(command.get(Option.BASE_URL), provider, environment);
        Timeouts timeouts = new Timeouts(
                duration("--connect-timeout", command.get(Option.CONNECT_TIMEOUT)),
                duration("--first-byte-timeout", command.get(Option.FIRST_BYTE_TIMEOUT)),
                duration("--idle-timeout", command.get(Option.IDLE_TIMEOUT)));
        if (command.get(Option.RETRIES) < 0 || command.get(Option.MAX_OUTPUT_TOKENS) < 1) {
            throw new DockhandException(
                    ExitCodes.USAGE, "--retries must be 0 or more and --max-output-tokens at" + " least 1.");
        }
        Duration delay = duration("--retry-delay", command.get(Option.RETRY_DELAY));
        RetryPolicy retries = RetryPolicy.of(command.get(Option.RETRIES) + 1, delay);
        ModelChoice choice = new ModelChoice(
                provider, named, baseUrl, apiKey, timeouts, retries, command.get(Option.MAX_OUTPUT_TOKENS));
        try {
            provider.checkBaseUrl(baseUrl);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage());
        }
        return choice;
    }

    /**
     * Another model, as {@code /model} names it: {@code NAME} at the same provider and server, or
     * {@code PROVIDER:NAME} at another provider, with that provider's key and server from the environment.
     */
    public ModelChoice switchTo(String spec, CliEnvironment environment) {
        String named = spec.strip();
        Provider next = provider;
        Optional<Provider> prefix = prefixOf(named);
        if (prefix.isPresent()) {
            next = prefix.get();
            named = nameOf(named);
        }
        if (named.isEmpty()) {
            throw new DockhandException(ExitCodes.USAGE, "Name a model, like /model gpt-4.1 or /model anthropic:NAME.");
        }
        next = next.forModel(named);
        if (next == provider || sameServer(next, provider)) {
            // OpenAI's two APIs share a key and a server: a switch between them keeps the ones in use.
            return new ModelChoice(next, named, baseUrl, apiKey, timeouts, retries, maxOutputTokens);
        }
        String url = baseUrl(null, next, environment);
        try {
            next.checkBaseUrl(url);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage());
        }
        return new ModelChoice(next, named, url, apiKey(next, null, environment), timeouts, retries, maxOutputTokens);
    }

    /**
     * The provider a model name starts with, as in {@code anthropic:claude-sonnet-4-5}; empty for a plain name, or for
     * a colon that belongs to the name itself, as in Ollama's {@code llama3.1:8b}.
     */
    static Optional<Provider> prefixOf(String model) {
        int colon = model.indexOf(':');
        return colon > 0 ? Provider.parse(model.substring(0, colon)) : Optional.empty();
    }

    /** The model's name without the provider it may start with ({@link #prefixOf}). */
    static String nameOf(String model) {
        return prefixOf(model).isPresent() ? model.substring(model.indexOf(':') + 1) : model;
    }

    private static boolean sameServer(Provider one, Provider other) {
        return one.baseUrlVariable().equals(other.baseUrlVariable())
                && one.keyVariable().equals(other.keyVariable());
    }

    /** How the model is named on the command line: provider:name. */
    public String label() {
        return provider.cliName() + ":" + model;
    }

    /** The provider's client, retrying transient failures. */
    public ModelClient client() {
        try {
            return new RetryingModelClient(provider.client(baseUrl, apiKey, timeouts, maxOutputTokens), retries);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage());
        }
    }

    private static Provider provider(OptionValues command) {
        Optional<String> named = Optional.ofNullable(command.get(Option.PROVIDER));
        if (named.isEmpty()) {
            return Provider.OPENAI;
        }
        return Provider.parse(named.get())
                .orElseThrow(() -> new DockhandException(
                        ExitCodes.USAGE,
                        "'" + named.get() + "' is not a provider; use one of " + Provider.choices() + "."));
    }

    private static String apiKey(Provider provider, String namedVariable, CliEnvironment environment) {
        if (provider.keyVariable().isEmpty() && namedVariable == null) {
            return "";
        }
        String variable =
                namedVariable != null ? namedVariable : provider.keyVariable().get();
        return environment
                .get(variable)
                .orElseThrow(() -> new DockhandException(
                        ExitCodes.CONFIGURATION,
                        variable + " is not set: export it with your "
                                + (provider == Provider.OPENAI || provider == Provider.OPENAI_RESPONSES
                                        ? "provider's API key (a local server that needs none accepts any value)."
                                        : provider.displayName() + " API key.")));
    }

    private static String baseUrl(String given, Provider provider, CliEnvironment environment) {
        String url = given != null
                ? given.strip()
                : environment.get(provider.baseUrlVariable()).orElse(provider.defaultBaseUrl());
        // OLLAMA_HOST is often written as host:port, without a scheme.
        if (provider == Provider.OLLAMA && !url.contains("://")) {
            url = "http://" + url;
        }
        return url;
    }

    /** Reads 90, 90s, 5m or 1h. */
    static Duration duration(String option, String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (value.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            }
            char unit = value.charAt(value.length() - 1);
            if (Character.isDigit(unit)) {
                return Duration.ofSeconds(Long.parseLong(value));
            }
            long amount = Long.parseLong(value.substring(0, value.length() - 1));
            return switch (unit) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new NumberFormatException(value);
            };
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new DockhandException(
                    ExitCodes.USAGE, option + " " + text + " is not a duration; write it like 30s, 5m or 1h.");
        }
    }
}
