package dev.dockhand.core.model.responses;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.model.HttpErrors;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderEndpoint;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ProviderStreams;
import dev.dockhand.core.model.Timeouts;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.HttpUrl;

/**
 * A streaming client for {@code POST {baseUrl}/responses}: OpenAI's Responses API, and the servers that speak it (xAI).
 * One instance serves a whole session; it keeps no conversation state, and asks the server to keep none either.
 *
 * <p>It remembers one thing of the server for the session: that it refused reasoning summaries. OpenAI gives them only
 * to verified organizations and answers every other one's request for them with 400 "Your organization must be
 * verified to generate reasoning summaries", {@code param: "reasoning.summary"} (continuedev/continue#9602, #12031;
 * windmill-labs/windmill#10147 retries without them). Such a request is sent again at once without the summary, and
 * so is every later one, after a warning said once.
 */
public final class ResponsesClient implements ModelClient {
    /** OpenAI's API, the default server. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    private final ProviderEndpoint endpoint;
    private final String apiKey;
    private final ProviderStreams streams;
    private final ResponsesRequestWriter writer = new ResponsesRequestWriter();
    private final AtomicBoolean summariesRefused = new AtomicBoolean();

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
        ResponsesRequestWriter.Summaries summaries = summariesRefused.get()
                ? ResponsesRequestWriter.Summaries.LEFT_OUT
                : ResponsesRequestWriter.Summaries.ASKED;
        try {
            return send(request, summaries, listener, cancel);
        } catch (ProviderException e) {
            if (summaries == ResponsesRequestWriter.Summaries.LEFT_OUT || !refusesSummaries(e)) {
                throw e;
            }
            if (summariesRefused.compareAndSet(false, true)) {
                listener.onWarning("OpenAI refused reasoning summaries (\"" + providersWords(e)
                        + "\"); the rest of this" + " session asks for none, so the model's reasoning is not shown.");
            }
            return send(request, ResponsesRequestWriter.Summaries.LEFT_OUT, listener, cancel);
        }
    }

    private ModelReply send(
            ModelRequest request,
            ResponsesRequestWriter.Summaries summaries,
            StreamListener listener,
            Cancellation cancel)
            throws ProviderException {
        ResponsesStreamReader reader = new ResponsesStreamReader(listener, endpoint, request.model());
        byte[] body = writer.write(request, summaries);
        return streams.post(
                endpoint, body, ProviderStreams.Framing.SSE, reader, cancel, ProviderStreams.bearer(apiKey));
    }

    /** The 400 that names {@code reasoning.summary} as the field refused, before anything streamed. */
    private static boolean refusesSummaries(ProviderException e) {
        return e.httpStatus() == 400
                && e.param().filter("reasoning.summary"::equals).isPresent();
    }

    /** The provider's own words in the failure's message, cut so the warning stays a sentence or two. */
    private String providersWords(ProviderException e) {
        String message = e.getMessage();
        String prefix = HttpErrors.answered(endpoint, 400) + ": ";
        String words = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        return words.length() <= 200 ? words : Utf16.head(words, 200) + "…";
    }
}
