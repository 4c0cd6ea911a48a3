package dev.dockhand.cli.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.settings.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a model's tokens cost: Dockhand's table of common models ({@code prices.json} beside this class, the
 * providers' published prices as checked on {@value #CHECKED}), with the {@code pricing} settings over it. A model is
 * found by its exact name, else by the longest name in the table that it extends with only a date or version tag
 * ({@code claude-sonnet-4-5-20250929}, {@code gpt-4.1-2025-04-14}, {@code gemini-2.5-flash-preview-09-2025}): a
 * different model sharing a prefix ({@code gpt-5-pro}) is not priced as another. A model the table does not know has
 * no price, never a guessed one.
 */
public final class Pricing {
    /** When the built-in prices were last checked against the providers' pages. */
    static final String CHECKED = "2026-11-25";

    /** What may follow a known name: a preview or experimental mark, a date or a short version, or -latest. */
    private static final Pattern TAG =
            Pattern.compile("(-preview|-exp)?(-\\d{2}-\\d{4}|-\\d{4}-\\d{2}-\\d{2}|-\\d{8}|-\\d{3,4})?|-latest");

    /** US dollars per million tokens of each kind. */
    public record Price(double input, double cachedInput, double cacheWrite, double output) {
        /** Uncached input, cache reads, cache writes and output (reasoning included), each at its price. */
        public double cost(TokenUsage usage) {
            return (usage.uncachedInputTokens() * input
                            + usage.cachedInputTokens() * cachedInput
                            + usage.cacheWriteTokens() * cacheWrite
                            + usage.outputTokens() * output)
                    / 1_000_000;
        }

        /** Whether no kind of token costs more than at {@code other}. */
        public boolean atMost(Price other) {
            return input <= other.input
                    && cachedInput <= other.cachedInput
                    && cacheWrite <= other.cacheWrite
                    && output <= other.output;
        }
    }

    private final Map<String, Price> prices;

    private Pricing(Map<String, Price> prices) {
        this.prices = prices;
    }

    /** The built-in table, read on first use: most runs never ask for a price until the first reply. */
    private static final class BuiltIn {
        static final Map<String, Price> PRICES = read();

        private BuiltIn() {}

        private static Map<String, Price> read() {
            try (InputStream in = Pricing.class.getResourceAsStream("prices.json")) {
                if (in == null) {
                    throw new IllegalStateException("prices.json is missing from the classpath");
                }
                JsonNode models = Json.MAPPER.readTree(in).get("models");
                Map<String, Price> prices = new HashMap<>();
                for (Map.Entry<String, JsonNode> entry : models.properties()) {
                    JsonNode price = entry.getValue();
                    prices.put(
                            entry.getKey(),
                            new Price(
                                    price.get("input").asDouble(),
                                    price.get("cachedInput").asDouble(),
                                    price.get("cacheWrite").asDouble(),
                                    price.get("output").asDouble()));
                }
                return Map.copyOf(prices);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The built-in table alone. */
    public static Pricing builtIn() {
        return new Pricing(BuiltIn.PRICES);
    }

    /**
     * The built-in table with {@code overrides} (the {@code pricing} settings) over it.
     *
     * @throws IllegalArgumentException when a price is missing its input or output, or is negative
     */
    static Pricing with(Map<String, Settings.Price> overrides) {
        if (overrides == null || overrides.isEmpty()) {
            return builtIn();
        }
        Map<String, Price> prices = new HashMap<>(BuiltIn.PRICES);
        overrides.forEach((model, given) -> prices.put(model.toLowerCase(Locale.ROOT), price(model, given)));
        return new Pricing(Map.copyOf(prices));
    }

    private static Price price(String model, Settings.Price given) {
        if (given == null || given.input() == null || given.output() == null) {
            throw new IllegalArgumentException("must give input and output for '" + model + "'.");
        }
        double input = given.input();
        double cached = given.cachedInput() == null ? input : given.cachedInput();
        double write = given.cacheWrite() == null ? input : given.cacheWrite();
        double output = given.output();
        if (input < 0 || cached < 0 || write < 0 || output < 0) {
            throw new IllegalArgumentException("has a negative price for '" + model + "'.");
        }
        return new Price(input, cached, write, output);
    }

    /** The price of {@code model}, when the table or the settings know it. */
    public Optional<Price> find(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        Price exact = prices.get(name);
        if (exact != null) {
            return Optional.of(exact);
        }
        String best = null;
        for (String known : prices.keySet()) {
            if (name.startsWith(known)
                    && TAG.matcher(name.substring(known.length())).matches()
                    && (best == null || known.length() > best.length())) {
                best = known;
            }
        }
        return Optional.ofNullable(best).map(prices::get);
    }

    /**
     * Whether {@code model} is no dearer than {@code than}: the same model, or both priced and no kind of token costing
     * more. A model without a price is never no dearer than another: what it costs is not known.
     */
    public boolean noDearer(String model, String than) {
        if (model.strip().equalsIgnoreCase(than.strip())) {
            return true;
        }
        Optional<Price> price = find(model);
        Optional<Price> limit = find(than);
        return price.isPresent() && limit.isPresent() && price.get().atMost(limit.get());
    }

    /** An amount for people: $0.0042 below a cent, $1.23 above. */
    public static String dollars(double amount) {
        return amount < 0.01 && amount > 0
                ? String.format(Locale.ROOT, "$%.4f", amount)
                : String.format(Locale.ROOT, "$%.2f", amount);
    }
}
