package dev.dockhand.core.model.gemini;

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

/** A streaming client for {@code POST {baseUrl}/v1beta/models/{model}:streamGenerateContent?alt=sse}. */
public final class GeminiClient implements ModelClient {
    public static final String DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

    private final HttpUrl base;
    private final String apiKey;
    private final ProviderStreams streams;

    public GeminiClient(String baseUrl, String apiKey, Timeouts timeouts) {
        HttpUrl parsed = ProviderEndpoint.parseBaseUrl(baseUrl, DEFAULT_BASE_URL);
        this.base = parsed;
        this.apiKey = apiKey;
        this.streams = new ProviderStreams(timeouts, parsed);
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        HttpUrl url = base.newBuilder()
                .addPathSegments("v1beta/models")
                .addPathSegment(request.model() + ":streamGenerateContent")
                .addQueryParameter("alt", "sse")
                .build();
        ProviderEndpoint endpoint = new ProviderEndpoint("Gemini", url, apiKey);
        return streams.post(
                endpoint,
                Json.writeBytes(GeminiRequestWriter.write(request)),
                ProviderStreams.Framing.SSE,
                new GeminiStreamReader(request.model(), listener, endpoint),
                cancel,
                "x-goog-api-key",
                apiKey);
    }
}
