package dev.dockhand.core.model;

import dev.dockhand.core.Cancellation;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionSpec;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;
import okio.BufferedSource;

/**
 * Runs one streaming model request, Server-Sent Events (OpenAI, Anthropic, Gemini) or NDJSON (Ollama), feeding its
 * events to the provider's {@link ReplyAssembler}, and turns every way it can end into a reply or one
 * {@link ProviderException}: HTTP errors, errors inside the stream, stalls past a time-out, a connection cut before
 * the reply was complete. A cancel closes the stream and returns the reply so far.
 */
public final class ProviderStreams {
    private ProviderStreams() {}

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
                // okhttp-sse runs a stream as an asynchronous call; this dispatcher runs it on the caller's thread.
                // Otherwise the request went out on okhttp's thread and every event came back to ours: on a busy
                // machine each hand-over is a thread wake-up, and they added up to milliseconds per tool round.
                .dispatcher(new Dispatcher(new CallingThreadExecutor()))
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

    public static ModelReply sse(
            OkHttpClient http,
            Request request,
            ProviderEndpoint endpoint,
            ReplyAssembler assembler,
            Timeouts timeouts,
            Cancellation cancel)
            throws ProviderException {
        // The stream runs on this thread (see httpClient), so a cancel or a stall, which come from other threads,
        // close it through the client's dispatcher: this client runs one stream at a time.
        Runnable stop = () -> http.dispatcher().cancelAll();
        try (StreamWatchdog watchdog = new StreamWatchdog(timeouts, stop);
                Cancellation.Registration ignored = cancel.onCancel(stop)) {
            if (cancel.isCancelled()) {
                return assembler.reply(true);
            }
            SseListener listener = new SseListener(assembler, endpoint, watchdog, cancel);
            // Returns when the stream has ended, one way or another.
            EventSources.createFactory(http).newEventSource(request, listener);
            return finish(assembler, endpoint, cancel, watchdog, listener.failure, listener.streamFailure);
        }
    }

    public static ModelReply ndjson(
            OkHttpClient http,
            Request request,
            ProviderEndpoint endpoint,
            ReplyAssembler assembler,
            Timeouts timeouts,
            Cancellation cancel)
            throws ProviderException {
        Call call = http.newCall(request);
        ProviderException failure = null;
        IOException streamFailure = null;
        try (StreamWatchdog watchdog = new StreamWatchdog(timeouts, call::cancel);
                Cancellation.Registration ignored = cancel.onCancel(call::cancel)) {
            try (Response response = call.execute()) {
                if (!response.isSuccessful()) {
                    throw HttpErrors.fromResponse(response, endpoint);
                }
                failure = readLines(response.body(), assembler, watchdog);
            } catch (IOException e) {
                streamFailure = e;
            }
            return finish(assembler, endpoint, cancel, watchdog, failure, streamFailure);
        }
    }

    private static ProviderException readLines(ResponseBody body, ReplyAssembler assembler, StreamWatchdog watchdog)
            throws IOException {
        BufferedSource source = body.source();
        String line;
        while ((line = source.readUtf8Line()) != null) {
            watchdog.event();
            if (line.isBlank()) {
                continue;
            }
            try {
                assembler.accept(line);
            } catch (ProviderException e) {
                return e;
            }
        }
        return null;
    }

    private static ModelReply finish(
            ReplyAssembler assembler,
            ProviderEndpoint endpoint,
            Cancellation cancel,
            StreamWatchdog watchdog,
            ProviderException failure,
            Throwable streamFailure)
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
        if (streamFailure instanceof IOException io) {
            throw HttpErrors.network(endpoint, io);
        }
        if (streamFailure != null) {
            throw new ProviderException(
                    ProviderException.Kind.PROTOCOL,
                    endpoint.describeCapitalized() + " did not send a reply stream: "
                            + endpoint.redact(streamFailure.getMessage()),
                    streamFailure);
        }
        if (!assembler.complete()) {
            throw new ProviderException(
                    ProviderException.Kind.NETWORK,
                    "The reply stream from " + endpoint.describe() + " ended before the reply was complete.",
                    null);
        }
        return assembler.reply(false);
    }

    /** Feeds the events to the assembler; failures are recorded and thrown once the stream has ended. */
    private static final class SseListener extends EventSourceListener {
        private final ReplyAssembler assembler;
        private final ProviderEndpoint endpoint;
        private final StreamWatchdog watchdog;
        private final Cancellation cancel;
        private ProviderException failure;
        private Throwable streamFailure;

        SseListener(ReplyAssembler assembler, ProviderEndpoint endpoint, StreamWatchdog watchdog, Cancellation cancel) {
            this.assembler = assembler;
            this.endpoint = endpoint;
            this.watchdog = watchdog;
            this.cancel = cancel;
        }

        @Override
        public void onOpen(EventSource eventSource, Response response) {
            // A cancel that came after sse() checked but before okhttp knew of the call found nothing to close.
            if (cancel.isCancelled()) {
                eventSource.cancel();
            }
        }

        @Override
        public void onEvent(EventSource eventSource, String id, String type, String data) {
            watchdog.event();
            if (failure != null) {
                return;
            }
            try {
                assembler.accept(data);
            } catch (ProviderException e) {
                failure = e;
                eventSource.cancel();
            }
        }

        @Override
        public void onFailure(EventSource eventSource, Throwable t, Response response) {
            if (response != null && !response.isSuccessful()) {
                // The body can only be read here, inside the callback, before okhttp-sse closes the response.
                failure = HttpErrors.fromResponse(response, endpoint);
            } else if (failure == null) {
                streamFailure = t == null ? new IOException("stream failed") : t;
            }
        }
    }

    /** Runs each task at once on the thread that submits it; the dispatcher's only executor (see httpClient). */
    private static final class CallingThreadExecutor extends AbstractExecutorService {
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return shutdown;
        }
    }
}
