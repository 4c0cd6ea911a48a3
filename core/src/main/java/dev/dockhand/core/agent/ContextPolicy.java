package dev.dockhand.core.agent;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * When to compress the conversation: once the next prompt would fill more than {@code threshold} of the model's
 * context window. The window comes from settings when given, else from a table of common models, else a cautious
 * default. {@code keepTurns} user turns at the end are kept verbatim when they fit in a third of the window.
 */
public record ContextPolicy(OptionalLong configuredWindow, double threshold, int keepTurns) {
    public static final double DEFAULT_THRESHOLD = 0.7;
    public static final int DEFAULT_KEEP_TURNS = 2;
    /** For models the table does not know: small enough that compression comes early rather than too late. */
    public static final long FALLBACK_WINDOW = 128_000;

    public static final ContextPolicy DEFAULT =
            new ContextPolicy(OptionalLong.empty(), DEFAULT_THRESHOLD, DEFAULT_KEEP_TURNS);

    /** A model-name prefix and its window in tokens; the first match wins, so longer prefixes come first. */
    private record Window(String prefix, long tokens) {}

    private static final List<Window> WINDOWS = List.of(
            new Window("gpt-4.1", 1_047_576),
            new Window("gpt-4o", 128_000),
            new Window("gpt-4-turbo", 128_000),
            new Window("gpt-4", 8_192),
            new Window("gpt-5", 400_000),
            new Window("gpt-3.5", 16_385),
            new Window("o1", 200_000),
            new Window("o3", 200_000),
            new Window("o4", 200_000),
            new Window("codex", 400_000),
            new Window("claude", 200_000),
            new Window("gemini-1.5-pro", 2_097_152),
            new Window("gemini", 1_048_576),
            new Window("qwen3-coder", 262_144),
            new Window("qwen3", 131_072),
            new Window("qwen2.5", 32_768),
            new Window("llama3", 131_072),
            new Window("llama-3", 131_072),
            new Window("deepseek", 131_072),
            new Window("mistral-large", 131_072),
            new Window("codestral", 262_144),
            new Window("devstral", 131_072),
            new Window("mistral", 32_768),
            new Window("gemma", 131_072));

    public ContextPolicy {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("threshold must be above 0 and at most 1, was " + threshold);
        }
        if (keepTurns < 1) {
            throw new IllegalArgumentException("keepTurns must be at least 1, was " + keepTurns);
        }
        if (configuredWindow.isPresent() && configuredWindow.getAsLong() < 1024) {
            throw new IllegalArgumentException("a context window must be at least 1024 tokens");
        }
    }

    /** The window of {@code model} in tokens; the model name may carry a vendor path, like meta/llama3.1:8b. */
    public long windowFor(String model) {
        if (configuredWindow.isPresent()) {
            return configuredWindow.getAsLong();
        }
        return knownWindow(model).orElse(FALLBACK_WINDOW);
    }

    /** The table's window for {@code model}, if the table knows it. */
    public static OptionalLong knownWindow(String model) {
        String name = model.toLowerCase(Locale.ROOT);
        name = name.substring(name.lastIndexOf('/') + 1);
        for (Window window : WINDOWS) {
            if (name.startsWith(window.prefix())) {
                return OptionalLong.of(window.tokens());
            }
        }
        return OptionalLong.empty();
    }

    /** Whether a prompt of {@code tokens} is over the threshold for {@code model}. */
    public boolean overThreshold(long tokens, String model) {
        return tokens > threshold * windowFor(model);
    }

    /** How many tokens the verbatim part kept by a compression may take. */
    public long keepBudget(String model) {
        return windowFor(model) / 3;
    }
}
