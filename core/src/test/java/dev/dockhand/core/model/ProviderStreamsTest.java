package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import okhttp3.ConnectionSpec;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import org.junit.jupiter.api.Test;

class ProviderStreamsTest {
    private record Wire(List<Protocol> protocols, List<ConnectionSpec> specs) {}

    private static Wire wire(String url) {
        OkHttpClient client = ProviderStreams.httpClient(Timeouts.DEFAULT, HttpUrl.get(url));
        return new Wire(client.protocols(), client.connectionSpecs());
    }

    @Test
    void hostedModelsAreReachedOverHttp1WithTheDefaultTlsSpecs() {
        // An HTTP/2 connection keeps a reader thread in a blocking socket read, and the JVM waits 300 ms at exit for
        // such a thread: every `dockhand -p` against an HTTP/2 server ended that much after its answer.
        assertEquals(
                new Wire(List.of(Protocol.HTTP_1_1), List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT)),
                wire("https://api.openai.com/v1"));
    }

    @Test
    void plainHttpModelsNeverStartTls() {
        assertEquals(
                new Wire(List.of(Protocol.HTTP_1_1), List.of(ConnectionSpec.CLEARTEXT)),
                wire("http://127.0.0.1:11434"));
    }
}
