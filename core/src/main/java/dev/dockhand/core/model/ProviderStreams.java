package dev.dockhand.core.model;

import dev.dockhand.core.Cancellation;
import java.io.IOException;
import java.util.List;
import okhttp3.Call;
import okhttp3.ConnectionSpec;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;
import okio.ByteString;

/**
 * Posts one model request and reads its reply stream, Server-Sent Events (OpenAI, Anthropic, Gemini, Responses) or
 * NDJSON (Ollama), on the caller's thread, feeding each event to the provider's {@link ReplyAssembler}. Every way a
 * stream can end becomes a reply or one {@link ProviderException}: HTTP errors, errors inside the stream, stalls past
 * a time-out, a connection cut before the reply was complete. A cancel closes this call's stream, and no other, and
 * returns the reply so far. One instance serves one client for a whole session.
 */
public final class ProviderStreams {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
    private static final ByteString LINE_ENDS = ByteString.encodeUtf8("\r\n");

    /** How a reply stream frames its events. */
    public enum Framing {
        /** Server-Sent Events: the data lines of each event, up to a blank line. */
        SSE,
        /** One JSON object per line. */
        NDJSON
    }

    private final OkHttpClient http;
    private final Timeouts timeouts;

    /** @param server where the requests go; only whether it is https matters here */
    public ProviderStreams(Timeouts timeouts, HttpUrl server) {
        this.http = httpClient(timeouts, server);
        this.timeouts = timeouts;
    }

    /** An HTTP client for model streams with these time-outs (the idle one also bounds each socket read). */
    public static OkHttpClient httpClient(Timeouts timeouts, HttpUrl endpoint) {
        OkHttpClient.Builder builder = new OkHttpClient.Builder()
                .connectTimeout(timeouts.connect())
                .readTimeout(
                        timeouts.firstByte().compareTo(timeouts.idle()) > 0 ? timeouts.firstByte() : timeouts.idle())
                .writeTimeout(timeouts.write())
                .socketFactory(new NoDelaySocketFactory())
                // The key goes to the server the user configured and nowhere else: okhttp drops Authorization on a
                // redirect to another host, but not Anthropic's x-api-key or Gemini's x-goog-api-key. A model API
                // has no reason to redirect, so a redirect is answered as the error it is.
                .followRedirects(false)
                .followSslRedirects(false)
                // HTTP/1.1 only, as the providers' own SDKs speak by default: a turn is one stream at a time, so
                // HTTP/2 gains nothing here, and it costs a reader thread per connection that sits in a blocking
                // socket read. The JVM waits up to 300 ms at exit for a thread in native code, so every
                // `dockhand -p` against an HTTP/2 server ended 0.3 s after its answer (0.61 s against 0.32 s).
                .protocols(List.of(Protocol.HTTP_1_1));
        if (!endpoint.isHttps()) {
            // A local model over plain http: without TLS specs okhttp never initialises TLS, a visible part of
            // every start-up (the trust store alone is tens of milliseconds).
            builder.connectionSpecs(List.of(ConnectionSpec.CLEARTEXT));
        }
        return builder.build();
    }

    /** The {@code Authorization: Bearer} header pair for {@link #post}, or none when there is no key (a local server). */
    public static String[] bearer(String apiKey) {
        return apiKey.isEmpty() ? new String[0] : new String[] {"Authorization", "Bearer " + apiKey};
    }

    /**
     * Posts {@code body} (JSON) to the endpoint and reads the reply.
     *
     * @param headers header names and values, alternating
     */
    public ModelReply post(
            ProviderEndpoint endpoint,
            byte[] body,
            Framing framing,
            ReplyAssembler assembler,
            Cancellation cancel,
            String... headers)
            throws ProviderException {
        Request.Builder request = new Request.Builder().url(endpoint.url());
        if (framing == Framing.SSE) {
            request.header("Accept", "text/event-stream");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        // A synchronous call: the request and every event stay on this thread. A cancel or a stall, which come from
        // other threads, cancel this call; okhttp then fails its pending read, or never sends it.
        Call call = http.newCall(request.post(RequestBody.create(body, JSON)).build());
        ProviderException failure = null;
        IOException broken = null;
        try (StreamWatchdog watchdog = new StreamWatchdog(timeouts, call::cancel);
                Cancellation.Registration ignored = cancel.onCancel(call::cancel)) {
            try (Response response = call.execute()) {
                failure = read(response, endpoint, framing, assembler, watchdog);
            } catch (IOException e) {
                broken = e;
            }
            return finish(assembler, endpoint, cancel, watchdog, failure, broken);
        }
    }

    /** Feeds the events to the assembler until the stream ends; returns the failure that ended it, if any. */
    private static ProviderException read(
            Response response,
            ProviderEndpoint endpoint,
            Framing framing,
            ReplyAssembler assembler,
            StreamWatchdog watchdog)
            throws IOException {
        if (!response.isSuccessful()) {
            return HttpErrors.fromResponse(response, endpoint);
        }
        MediaType type = response.body().contentType();
        if (framing == Framing.SSE
                && (type == null
                        || !type.type().equals("text")
                        || !type.subtype().equals("event-stream"))) {
            return notAStream(endpoint, "Invalid content-type: " + type, null);
        }
        BufferedSource source = response.body().source();
        String data = null;
        String line;
        // After a cancel the events already received are still read; the next read from the network fails.
        while ((line = line(source)) != null) {
            String event = null;
            if (framing == Framing.NDJSON) {
                event = line.isBlank() ? null : line;
            } else if (line.isEmpty()) {
                event = data;
                data = null;
            } else {
                data = withData(data, line);
            }
            if (event != null) {
                watchdog.event();
                try {
                    assembler.accept(event);
                } catch (ProviderException e) {
                    return e;
                } catch (RuntimeException e) {
                    return notAStream(endpoint, e.getMessage(), e);
                }
            }
        }
        return null;
    }

    /**
     * Why this is read here and not by okhttp-sse: its synchronous entry, {@code EventSources.processResponse}, fails
     * in 4.12 on a response it did not start itself ("lateinit property call has not been initialized"), and its
     * asynchronous one needs a dispatcher and {@code cancelAll} to stop a stream, which cancels every stream of the
     * client. The SSE reading a model stream needs is these few lines: data fields joined, the rest skipped.
     *
     * <p>The next line, ended by LF, CRLF or CR; at the end of the stream what is left, or null. An SSE event is
     * dispatched only at the blank line after it, so one cut short at the end is never read.
     */
    private static String line(BufferedSource source) throws IOException {
        long end = source.indexOfElement(LINE_ENDS);
        if (end == -1) {
            return source.exhausted() ? null : source.readUtf8();
        }
        String line = source.readUtf8(end);
        if (source.readByte() == '\r' && source.request(1) && source.getBuffer().getByte(0) == '\n') {
            source.skip(1);
        }
        return line;
    }

    /**
     * The event's data with this SSE line's added: {@code data:} fields join with newlines, one space after the colon
     * is not part of the value. Comments, {@code event:}, {@code id:} and {@code retry:} tell the readers nothing.
     */
    private static String withData(String data, String line) {
        int colon = line.indexOf(':');
        if (!(colon < 0 ? line : line.substring(0, colon)).equals("data")) {
            return data;
        }
        String value = colon < 0 ? "" : line.substring(line.startsWith(" ", colon + 1) ? colon + 2 : colon + 1);
        return data == null ? value : data + "\n" + value;
    }

    private static ProviderException notAStream(ProviderEndpoint endpoint, String detail, Throwable cause) {
        return new ProviderException(
                ProviderException.Kind.PROTOCOL,
                endpoint.describeCapitalized() + " did not send a reply stream: " + endpoint.redact(detail),
                cause);
    }

    private static ModelReply finish(
            ReplyAssembler assembler,
            ProviderEndpoint endpoint,
            Cancellation cancel,
            StreamWatchdog watchdog,
            ProviderException failure,
            IOException broken)
            throws ProviderException {
        if (cancel.isCancelled()) {
            return assembler.reply(true);
        }
        if (watchdog.stalled() != null) {
            throw new ProviderException(
                    ProviderException.Kind.NETWORK,
                    endpoint.describeCapitalized() + " " + watchdog.stalled() + "; the reply was abandoned.",
                    null);
        }
        if (failure != null) {
            throw failure;
        }
        if (broken != null) {
            throw HttpErrors.network(endpoint, broken);
        }
        if (!assembler.complete()) {
            throw new ProviderException(
                    ProviderException.Kind.NETWORK,
                    "The reply stream from " + endpoint.describe() + " ended before the reply was complete.",
                    null);
        }
        return assembler.reply(false);
    }
}
