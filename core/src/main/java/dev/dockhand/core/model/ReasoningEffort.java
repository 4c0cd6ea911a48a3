package dev.dockhand.core.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How much the model should reason before it answers, mapped by each provider to its own control (OpenAI's
 * reasoning_effort, Anthropic's thinking budget, Gemini's thinkingConfig, DeepSeek's thinking switch).
 */
public enum ReasoningEffort {
    LOW,
    MEDIUM,
    HIGH;

    /** The name users write: low, medium, high. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ReasoningEffort> parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(effort -> effort.cliName().equals(wanted))
                .findFirst();
    }
}
