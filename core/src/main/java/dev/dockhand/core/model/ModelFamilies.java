package dev.dockhand.core.model;

import dev.dockhand.core.model.responses.ResponsesModels;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which provider a model's name says it comes from, as far as names tell: {@code claude-…} is Anthropic's,
 * {@code gemini-…} Gemini's, {@code gpt-…}, {@code chatgpt-…}, {@code o1}, {@code o3-mini}, {@code codex-…} OpenAI's.
 * Other names (open models such as {@code gpt-oss}, {@code llama3} or {@code qwen3-coder}, a server's own names) are
 * no provider's, so any provider may serve them. Used to check a model someone named (an agent definition's) against
 * the session's provider, whose client sends it, before a request is refused for it.
 */
public final class ModelFamilies {
    private static final Pattern OPENAI = Pattern.compile("(gpt-(?!oss).+|chatgpt-.+|o\\d(-.+)?|codex-.+)");

    private ModelFamilies() {}

    /** The provider whose model {@code model} is by its name; empty when the name is no provider's own. */
    public static Optional<Provider> owner(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        if (name.startsWith("claude-")) {
            return Optional.of(Provider.ANTHROPIC);
        }
        if (name.startsWith("gemini-")) {
            return Optional.of(Provider.GEMINI);
        }
        return OPENAI.matcher(name).matches() ? Optional.of(Provider.OPENAI) : Optional.empty();
    }

    /**
     * Why {@code provider}, at {@code baseUrl}, cannot serve {@code model}, as a clause ("it is Anthropic's model and
     * the session's provider is OpenAI"); empty when it can, or when its name cannot tell. An OpenAI-compatible server
     * other than OpenAI's (OpenRouter, vLLM, LiteLLM) may serve any name, so there only names decide nothing.
     */
    public static Optional<String> mismatch(Provider provider, String baseUrl, String model) {
        Optional<Provider> owner = owner(model);
        if (owner.isEmpty()) {
            return Optional.empty();
        }
        boolean openAi = provider == Provider.OPENAI || provider == Provider.OPENAI_RESPONSES;
        if (openAi && !strip(baseUrl).equals(strip(provider.defaultBaseUrl()))) {
            return Optional.empty();
        }
        if (openAi && owner.get() == Provider.OPENAI) {
            return provider == Provider.OPENAI && ResponsesModels.responsesOnly(model)
                    ? Optional.of("OpenAI serves it only through the Responses API, and the session's model speaks chat"
                            + " completions")
                    : Optional.empty();
        }
        if (owner.get() == provider) {
            return Optional.empty();
        }
        return Optional.of("it is " + owner.get().displayName() + "'s model and the session's provider is "
                + provider.displayName());
    }

    private static String strip(String url) {
        String trimmed = url.strip();
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }
}
