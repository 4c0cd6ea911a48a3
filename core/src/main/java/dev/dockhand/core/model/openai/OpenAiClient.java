package dev.dockhand.core.model.openai;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ProviderStreams;
import dev.dockhand.core.model.Timeouts;
import java.util.Objects;
import okhttp3.HttpUrl;

/**
 * A streaming client for {@code POST {baseUrl}/chat/completions}: OpenAI and every server that speaks its API (vLLM,
 * llama.cpp, LM Studio, OpenRouter, Azure-style gateways). One instance serves a whole session; it keeps no
 * conversation state.
 */
public final class OpenAiClient implements ModelClient {
    private final ProviderEndpoint endpoint;
    private final String apiKey;
    private final ProviderStreams streams;
    private final OpenAiRequestWriter writer;

    public OpenAiClient(String baseUrl, String apiKey, Timeouts timeouts) {
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.endpoint = new ProviderEndpoint("the OpenAI-compatible server", endpoint(baseUrl), apiKey);
        this.streams = new ProviderStreams(timeouts, endpoint.url());
        this.writer = new OpenAiRequestWriter(endpoint.url().host());
    }

    /** A client with the default time-outs. */
    public static OpenAiClient create(String baseUrl, String apiKey) {
        return new OpenAiClient(baseUrl, apiKey, Timeouts.DEFAULT);
    }

    /**
     * Resolves {@code chat/completions} under the base URL.
     *
     * @throws IllegalArgumentException with a sentence for the user when the URL is not http(s)
     */
    public static HttpUrl endpoint(String baseUrl) {
        HttpUrl base = ProviderEndpoint.parseBaseUrl(baseUrl, "https://api.openai.com/v1");
        return base.newBuilder().addPathSegments("chat/completions").build();
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        OpenAiStreamReader reader = new OpenAiStreamReader(listener, endpoint, request.model());
        byte[] body = writer.write(request);
        return streams.post(
                endpoint, body, ProviderStreams.Framing.SSE, reader, cancel, ProviderStreams.bearer(apiKey));
    }
}
