package dev.dockhand.core.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

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

    /**
     * Whether {@code model} is known to refuse an effort on OpenAI's wires ({@code reasoning_effort} on chat
     * completions, {@code reasoning.effort} on Responses) with a 400: OpenAI's models that do not reason (gpt-4*,
     * gpt-3.5, chatgpt-*, the gpt-5 chat models) and xAI's grok models other than grok-3-mini, the one of them that
     * takes it ("Model grok-4-fast-reasoning does not support parameter reasoningEffort.", BerriAI/litellm#16265,
     * NousResearch/hermes-agent#23435). A session-wide effort must not break a /model switch to one of them; other
     * servers' models get it as asked.
     */
    public static boolean refusedBy(String model) {
        return REFUSED_BY.matcher(model.strip().toLowerCase(Locale.ROOT)).matches();
    }

    private static final Pattern REFUSED_BY =
            Pattern.compile("(gpt-4.*|gpt-3\\.5.*|chatgpt-.*|gpt-5(\\.\\d+)?-chat.*|grok-(?!3-mini).*)");

    public static Optional<ReasoningEffort> parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(effort -> effort.cliName().equals(wanted))
                .findFirst();
    }
}
