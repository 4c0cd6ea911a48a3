package dev.dockhand.core.model.responses;

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
 * A streaming client for {@code POST {baseUrl}/responses}: OpenAI's Responses API, and the servers that speak it (xAI).
 * One instance serves a whole session; it keeps no conversation state, and asks the server to keep none either.
 */
public final class ResponsesClient implements ModelClient {
    /** OpenAI's API, the default server. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private final ProviderEndpoint endpoint;
    private final String apiKey;
    private final ProviderStreams streams;
    private final ResponsesRequestWriter writer = new ResponsesRequestWriter();

    public ResponsesClient(String baseUrl, String apiKey, Timeouts timeouts) {
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.endpoint = new ProviderEndpoint("OpenAI Responses", endpoint(baseUrl), apiKey);
        this.streams = new ProviderStreams(timeouts, endpoint.url());
    }

    /**
     * Resolves {@code responses} under the base URL.
     *
     * @throws IllegalArgumentException with a sentence for the user when the URL is not http(s)
     */
    public static HttpUrl endpoint(String baseUrl) {
        HttpUrl base = ProviderEndpoint.parseBaseUrl(baseUrl, DEFAULT_BASE_URL);
        return base.newBuilder().addPathSegments("responses").build();
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        ResponsesStreamReader reader = new ResponsesStreamReader(listener, endpoint, request.model());
        byte[] body = writer.write(request);
        return streams.post(
                endpoint, body, ProviderStreams.Framing.SSE, reader, cancel, ProviderStreams.bearer(apiKey));
    }
}
