package dev.dockhand.core.model.openai;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderException;
import java.time.Duration;
import java.util.Objects;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSources;

/**
 * A streaming client for {@code POST {baseUrl}/chat/completions}. One instance serves a whole session; it keeps no
 * conversation state. okhttp-sse reads the stream on its own thread while the caller waits; cancelling closes the
 * stream and the caller returns with what had arrived.
 */
public final class OpenAiClient implements ModelClient {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    private final HttpUrl endpoint;
    private final String apiKey;
    private final EventSource.Factory events;

    public OpenAiClient(String baseUrl, String apiKey, OkHttpClient http) {
        this.endpoint = endpoint(baseUrl);
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.events = EventSources.createFactory(http);
    }

    /** A client with time-outs suited to model streams: a quick connect, a long wait between events. */
    public static OpenAiClient create(String baseUrl, String apiKey) {
        OkHttpClient http = new OkHttpClient.Builder()
                .connectTimeout(Duration.ofSeconds(15))
                // Reasoning models may think for minutes before the first byte; a stalled stream still ends.
                .readTimeout(Duration.ofMinutes(5))
                .writeTimeout(Duration.ofMinutes(1))
                .build();
        return new OpenAiClient(baseUrl, apiKey, http);
    }

    /**
     * Resolves {@code chat/completions} under the base URL.
     *
     * @throws IllegalArgumentException with a sentence for the user when the URL is not http(s)
     */
    public static HttpUrl endpoint(String baseUrl) {
        HttpUrl base = HttpUrl.parse(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
        if (base == null) {
            throw new IllegalArgumentException(
                    "The base URL '" + baseUrl + "' is not an http(s) URL; set it like https://api.openai.com/v1.");
        }
        return base.newBuilder().addPathSegments("chat/completions").build();
    }

    @Override
    public ModelReply stream(ModelRequest request, StreamListener listener, Cancellation cancel)
            throws ProviderException {
        Request.Builder httpRequest = new Request.Builder()
                .url(endpoint)
                .header("Accept", "text/event-stream")
                .post(RequestBody.create(Json.write(OpenAiRequestWriter.write(request)), JSON));
        if (!apiKey.isEmpty()) {
            httpRequest.header("Authorization", "Bearer " + apiKey);
        }
        OpenAiStreamReader reader = new OpenAiStreamReader(listener, endpoint, apiKey);
        EventSource source = events.newEventSource(httpRequest.build(), reader);
        try (Cancellation.Registration ignored = cancel.onCancel(source::cancel)) {
            reader.awaitEnd(cancel);
        } catch (InterruptedException e) {
            // An interrupted caller is treated like a cancel: stop the stream, return what arrived.
            source.cancel();
            Thread.currentThread().interrupt();
            return reader.finish(true);
        }
        return reader.finish(cancel.isCancelled());
    }
}
