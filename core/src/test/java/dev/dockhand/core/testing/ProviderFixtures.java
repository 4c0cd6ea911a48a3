package dev.dockhand.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import okhttp3.mockwebserver.MockResponse;

/**
 * The provider stream fixtures under {@code src/test/resources/providers/<provider>/} (sources in SOURCES.md there),
 * served as the provider serves them: Server-Sent Events, or NDJSON for Ollama.
 */
public final class ProviderFixtures {
    private ProviderFixtures() {}

    /** The fixture's text; a missing one fails the test that asked for it. */
    public static String text(String path) {
        try (InputStream in = ProviderFixtures.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new AssertionError("missing fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code providers/<provider>/<name>.sse} (or {@code .ndjson} for Ollama) as the provider's reply. */
    public static MockResponse stream(String provider, String name) {
        boolean ndjson = provider.equals("ollama");
        return new MockResponse()
                .setHeader("Content-Type", ndjson ? "application/x-ndjson" : "text/event-stream")
                .setBody(text("/providers/" + provider + "/" + name + (ndjson ? ".ndjson" : ".sse")));
    }
}
