package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Message;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The provider's key goes to the configured server only: a redirect elsewhere is an error, never followed. */
class KeyStaysHomeTest {
    private final MockWebServer configured = new MockWebServer();
    private final MockWebServer elsewhere = new MockWebServer();

    @BeforeEach
    void start() throws IOException {
        configured.start(InetAddress.getLoopbackAddress(), 0);
        elsewhere.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() throws IOException {
        configured.close();
        elsewhere.close();
    }

    @ParameterizedTest
    @EnumSource(
            value = Provider.class,
            names = {"OPENAI", "OPENAI_RESPONSES", "ANTHROPIC", "GEMINI"})
    void aRedirectToAnotherServerIsNotFollowed(Provider provider) {
        String base = provider == Provider.OPENAI || provider == Provider.OPENAI_RESPONSES
                ? configured.url("/v1").toString()
                : configured.url("/").toString();
        configured.enqueue(new MockResponse()
                .setResponseCode(307)
                .setHeader("Location", elsewhere.url("/steal").toString()));
        // Were the redirect followed, this would answer it at once (a server with nothing queued would hang).
        elsewhere.enqueue(new MockResponse().setResponseCode(500));
        ModelClient client = provider.client(base, "secret-key", Timeouts.DEFAULT, 1024);

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> client.stream(
                        new ModelRequest("m", List.of(new Message.System("S"), new Message.User("hi")), List.of()),
                        text -> {},
                        new Cancellation()));

        assertEquals(1, configured.getRequestCount(), failure.getMessage());
        assertEquals(0, elsewhere.getRequestCount(), failure.getMessage());
    }
}
