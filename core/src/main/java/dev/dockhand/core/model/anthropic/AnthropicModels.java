package dev.dockhand.core.model.anthropic;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which thinking each Claude model takes, since a reasoning effort sent to the wrong one is a 400: the models before
 * Claude 3.7 Sonnet have no extended thinking; from Claude Opus 4.6 and Sonnet 4.6 on, thinking is adaptive (the
 * model decides, an effort says how hard) and Opus 4.7 and later refuse a fixed budget; the ones between take
 * {@code type: enabled} with {@code budget_tokens}. A name this does not know (a gateway's alias) gets a budget, the
 * form most Claude models take.
 */
final class AnthropicModels {
    private AnthropicModels() {}

    /** How a model is asked to think. */
    enum Thinking {
        NONE,
        BUDGET,
        ADAPTIVE
    }

    private static final Pattern NONE = Pattern.compile("claude-(instant|2|3-(haiku|sonnet|opus)|3-5-).*");

    /** Claude 4.6 and later 4.x (Opus and Sonnet), and every model of generation 5 and later. */
    private static final Pattern ADAPTIVE = Pattern.compile(
            "claude-((opus|sonnet)-4-([6-9]|[1-9][0-9])|[a-z]+-([5-9]|[1-9][0-9])(-.*)?|mythos.*)(-.*)?");

    static Thinking thinking(String model) {
        String name = model.toLowerCase(Locale.ROOT);
        if (NONE.matcher(name).matches()) {
            return Thinking.NONE;
        }
        return ADAPTIVE.matcher(name).matches() ? Thinking.ADAPTIVE : Thinking.BUDGET;
    }
}
