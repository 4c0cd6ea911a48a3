package dev.dockhand.core.model.anthropic;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ProviderStreams;
import dev.dockhand.core.model.Timeouts;
import okhttp3.HttpUrl;

/**
 * A streaming client for Anthropic's {@code POST {baseUrl}/v1/messages}, with prompt caching on and extended thinking
 * when a reasoning effort is set ({@link AnthropicRequestWriter}).
 */
public final class AnthropicClient implements ModelClient {
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";
    static final String API_VERSION = "2023-06-01";

    private final ProviderEndpoint endpoint;
    private final String apiKey;
    private final int maxTokens;
    private final boolean caching;
    private final ProviderStreams streams;

    /**
     * @param maxTokens the reply's output limit; the Messages API requires one. With thinking on, the request asks for
     *     more, so that the thinking budget does not eat the answer's room.
     */
    public AnthropicClient(String baseUrl, String apiKey, int maxTokens, Timeouts timeouts) {
        this(baseUrl, apiKey, maxTokens, timeouts, true);
    }

    /** @param caching whether requests mark prompt-cache breakpoints; off only to measure what caching saves */
    AnthropicClient(String baseUrl, String apiKey, int maxTokens, Timeouts timeouts, boolean caching) {
        HttpUrl base = ProviderEndpoint.parseBaseUrl(baseUrl, DEFAULT_BASE_URL);
        this.endpoint = new ProviderEndpoint(
                "Anthropic", base.newBuilder().addPathSegments("v1/messages").build(), apiKey);
        this.apiKey = apiKey;
        this.maxTokens = maxTokens;
        this.caching = caching;
        this.streams = new ProviderStreams(timeouts, endpoint.url());
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        return streams.post(
                endpoint,
                Json.writeBytes(AnthropicRequestWriter.write(request, maxTokens, caching)),
                ProviderStreams.Framing.SSE,
                new AnthropicStreamReader(listener, endpoint, request.model()),
                cancel,
                "x-api-key",
                apiKey,
                "anthropic-version",
                API_VERSION);
    }
}
