package dev.dockhand.core.model;

import dev.dockhand.core.model.anthropic.AnthropicClient;
import dev.dockhand.core.model.gemini.GeminiClient;
import dev.dockhand.core.model.ollama.OllamaClient;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.model.responses.ResponsesClient;
import dev.dockhand.core.model.responses.ResponsesModels;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The model providers Dockhand speaks natively, with where each finds its key and server by default. */
public enum Provider {
    /** OpenAI's chat completions, and every server that speaks them. */
    OPENAI("openai", "OpenAI", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1"),
    /** OpenAI's Responses API, the only one serving its codex and pro models; xAI speaks it too. */
    OPENAI_RESPONSES(
            "openai-responses",
            "OpenAI Responses",
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
            ResponsesClient.DEFAULT_BASE_URL),
    /** Anthropic's Messages API. */
    ANTHROPIC("anthropic", "Anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", AnthropicClient.DEFAULT_BASE_URL),
    /** Google's Gemini API. */
    GEMINI("gemini", "Gemini", "GEMINI_API_KEY", "GEMINI_BASE_URL", GeminiClient.DEFAULT_BASE_URL),
    /** A local Ollama, which needs no key. */
    OLLAMA("ollama", "Ollama", null, "OLLAMA_HOST", OllamaClient.DEFAULT_BASE_URL);

    private final String cliName;
    private final String displayName;
    private final String keyVariable;
    private final String baseUrlVariable;
    private final String defaultBaseUrl;

    Provider(String cliName, String displayName, String keyVariable, String baseUrlVariable, String defaultBaseUrl) {
        this.cliName = cliName;
        this.displayName = displayName;
        this.keyVariable = keyVariable;
        this.baseUrlVariable = baseUrlVariable;
        this.defaultBaseUrl = defaultBaseUrl;
    }

    public String cliName() {
        return cliName;
    }

    /** The name as users know it: OpenAI, OpenAI Responses, Anthropic, Gemini, Ollama. */
    public String displayName() {
        return displayName;
    }

    /** The environment variable holding the API key, or empty when the provider takes none. */
    public Optional<String> keyVariable() {
        return Optional.ofNullable(keyVariable);
    }

    public String baseUrlVariable() {
        return baseUrlVariable;
    }

    public String defaultBaseUrl() {
        return defaultBaseUrl;
    }

    public static Optional<Provider> parse(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(provider -> provider.cliName.equals(wanted))
                .findFirst();
    }

    public static String choices() {
        return Arrays.stream(values()).map(Provider::cliName).collect(Collectors.joining("|"));
    }

    /**
     * The provider that can serve {@code model}: this one, except that OpenAI's chat completions hand the models
     * OpenAI serves only through the Responses API ({@link ResponsesModels#responsesOnly}) to {@link
     * #OPENAI_RESPONSES}, which has the same key and server.
     */
    public Provider forModel(String model) {
        return this == OPENAI && ResponsesModels.responsesOnly(model) ? OPENAI_RESPONSES : this;
    }

    /**
     * Checks a base URL without building a client.
     *
     * @throws IllegalArgumentException with a sentence for the user when it is not http(s)
     */
    public void checkBaseUrl(String baseUrl) {
        ProviderEndpoint.parseBaseUrl(baseUrl, defaultBaseUrl);
    }

    /**
     * A client for this provider.
     *
     * @param maxOutputTokens the reply's output limit, for the APIs that require one (Anthropic)
     * @throws IllegalArgumentException with a sentence for the user when the base URL is not http(s)
     */
    public ModelClient client(String baseUrl, String apiKey, Timeouts timeouts, int maxOutputTokens) {
        return switch (this) {
            case OPENAI -> new OpenAiClient(baseUrl, apiKey, timeouts);
            case OPENAI_RESPONSES -> new ResponsesClient(baseUrl, apiKey, timeouts);
            case ANTHROPIC -> new AnthropicClient(baseUrl, apiKey, maxOutputTokens, timeouts);
            case GEMINI -> new GeminiClient(baseUrl, apiKey, timeouts);
            case OLLAMA -> new OllamaClient(baseUrl, timeouts);
        };
    }
}
