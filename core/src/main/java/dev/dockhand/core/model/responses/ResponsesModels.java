package dev.dockhand.core.model.responses;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** What Dockhand knows of OpenAI's model names where the Responses API is concerned. */
public final class ResponsesModels {
    /**
     * The models OpenAI serves only through the Responses API: chat completions answer them with "This model is only
     * supported in v1/responses and not in v1/chat/completions." From OpenAI's model pages (each lists the endpoints
     * it supports): the codex family (gpt-5-codex, gpt-5.1-codex, -mini and -max, later gpt-5.x-codex),
     * codex-mini-latest, and the pro models (o1-pro, o3-pro, gpt-5-pro, gpt-5.x-pro), also with a snapshot date; the
     * deep-research models and computer-use-preview. The one place this list is kept.
     */
    private static final List<Pattern> RESPONSES_ONLY = List.of(
            Pattern.compile("gpt-5(\\.\\d+)?-codex(-mini|-max)?"),
            Pattern.compile("codex-mini-latest"),
            Pattern.compile("(o1|o3|gpt-5(\\.\\d+)?)-pro"),
            Pattern.compile("(o3|o4-mini)-deep-research"),
            Pattern.compile("computer-use-preview"));

    /** A snapshot date after the name: -2025-08-07. */
    private static final String SNAPSHOT = "(-\\d{4}-\\d{2}-\\d{2})?";

    private ResponsesModels() {}

    /** Whether OpenAI serves {@code model} only through the Responses API (the name as OpenAI gives it). */
    public static boolean responsesOnly(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        return RESPONSES_ONLY.stream().anyMatch(pattern -> Pattern.matches(pattern.pattern() + SNAPSHOT, name));
    }

    /**
     * Whether {@code model} is one of OpenAI's reasoning models (the o-series, gpt-5 and later, codex): they take
     * {@code reasoning.summary}, which shows what they thought. gpt-5's chat variants do not reason.
     */
    static boolean reasons(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        if (name.contains("-chat")) {
            return false;
        }
        return name.matches("o\\d.*") || name.matches("gpt-([5-9]|\\d\\d).*") || name.contains("codex");
    }

    /**
     * Whether {@code model} is one of OpenAI's models known not to reason (gpt-4o, gpt-4.1, gpt-3.5, the gpt-5 chat
     * variants): they refuse a {@code reasoning} parameter and the encrypted reasoning {@code include} alike.
     */
    static boolean neverReasons(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        return name.startsWith("gpt-4")
                || name.startsWith("gpt-3")
                || name.startsWith("chatgpt-")
                || (name.startsWith("gpt-") && name.contains("-chat"));
    }
}
