package dev.dockhand.core.model.gemini;

import dev.dockhand.core.model.ReasoningEffort;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Dockhand knows of a Gemini model from its name: whether it thinks (and so takes a {@code thinkingConfig}),
 * which control it takes for how much, and whether it enforces thought signatures on function calls. Names it does
 * not recognise get nothing: a model that cannot think answers 400 to a {@code thinkingConfig}.
 */
final class GeminiModels {
    private static final Pattern VERSIONED = Pattern.compile("gemini-(\\d+)(?:\\.(\\d+))?-.*");
    /** The aliases that follow the newest generation (Gemini 3 since its release). */
    private static final Pattern LATEST = Pattern.compile("gemini-(?:flash|flash-lite|pro)-latest");
    /** Variants that do not think, or whose thinking is not a text model's: TTS, image, audio, live, embedding. */
    private static final Pattern NOT_THINKING = Pattern.compile(".*-(?:tts|image|audio|live|embedding).*");

    /**
     * The Gemini 2.5 budgets Google's OpenAI-compatible endpoint maps reasoning_effort low, medium and high to
     * ("behind the scenes we map to 1K, 8K, and 24K thinking token budgets"); 24576 is within every 2.5 model's range.
     */
    private static final int LOW_BUDGET = 1024;

    private static final int MEDIUM_BUDGET = 8192;
    private static final int HIGH_BUDGET = 24576;

    private final String name;
    private final int major;
    private final int minor;

    private GeminiModels(String name, int major, int minor) {
        this.name = name;
        this.major = major;
        this.minor = minor;
    }

    static GeminiModels of(String model) {
        String name = model.toLowerCase(Locale.ROOT);
        if (name.startsWith("models/")) {
            name = name.substring("models/".length());
        }
        if (LATEST.matcher(name).matches()) {
            return new GeminiModels(name, 3, 0);
        }
        Matcher versioned = VERSIONED.matcher(name);
        if (versioned.matches()) {
            int minor = versioned.group(2) == null ? 0 : Integer.parseInt(versioned.group(2));
            return new GeminiModels(name, Integer.parseInt(versioned.group(1)), minor);
        }
        return new GeminiModels(name, 0, 0);
    }

    /**
     * Gemini 3 and later refuse (400) a request whose current turn has a step whose first {@code functionCall} part
     * lacks its {@code thoughtSignature}; Gemini 2.5 reads signatures but does not require them.
     */
    boolean requiresCallSignatures() {
        return major >= 3;
    }

    /** Gemini 2.5 and 3 think, and accept a {@code thinkingConfig}; earlier models and other variants refuse one. */
    boolean thinks() {
        return (major >= 3 || (major == 2 && minor >= 5))
                && !NOT_THINKING.matcher(name).matches();
    }

    /**
     * The {@code thinkingLevel} (Gemini 3) for {@code effort}. Gemini 3 Pro takes only {@code low} and {@code high}
     * ("medium: coming soon, not supported at launch"), so medium is its default, high, there; the later models take
     * all three.
     */
    Optional<String> thinkingLevel(ReasoningEffort effort) {
        if (major < 3) {
            return Optional.empty();
        }
        return Optional.of(
                switch (effort) {
                    case LOW -> "low";
                    case MEDIUM -> name.startsWith("gemini-3-pro") ? "high" : "medium";
                    case HIGH -> "high";
                });
    }

    /** The {@code thinkingBudget} in tokens (Gemini 2.5, which does not take {@code thinkingLevel}). */
    Optional<Integer> thinkingBudget(ReasoningEffort effort) {
        if (major >= 3) {
            return Optional.empty();
        }
        return Optional.of(
                switch (effort) {
                    case LOW -> LOW_BUDGET;
                    case MEDIUM -> MEDIUM_BUDGET;
                    case HIGH -> HIGH_BUDGET;
                });
    }

    /**
     * Gemini 3 and later take images inside a {@code functionResponse} ({@code parts} of {@code inlineData}); earlier
     * models answer that with 400 and take them only as parts of the user turn beside the responses.
     */
    boolean takesImagesInFunctionResponses() {
        return major >= 3;
    }
}
