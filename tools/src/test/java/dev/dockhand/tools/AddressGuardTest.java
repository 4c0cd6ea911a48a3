package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;

class AddressGuardTest {
    private static final Dns RESOLVER = TestResolver.of(Map.of(
            "mixed.test", List.of("127.0.0.1", "192.0.2.10"),
            "inside.test", List.of("10.0.0.1", "::1"),
            "wiki.test", List.of("10.0.0.5"),
            "intranet.test", List.of("10.1.2.3")));

    private static List<InetAddress> addresses(String... literals) throws UnknownHostException {
        return TestResolver.of(Map.of("x", List.of(literals))).lookup("x");
    }

    @Test
    void keepsTheAllowedAddressesOfANameAndRefusesANameWithNone() throws UnknownHostException {
        AddressGuard guard = new AddressGuard(AllowedHosts.parse(List.of("wiki.test", "10.1.0.0/16")), RESOLVER);

        assertEquals(addresses("192.0.2.10"), guard.lookup("mixed.test"));
        assertEquals(addresses("10.0.0.5"), guard.lookup("wiki.test"));
        assertEquals(addresses("10.1.2.3"), guard.lookup("intranet.test"));
        assertEquals(
                "inside.test is at 10.0.0.1, a private address",
                assertThrows(InternalAddressException.class, () -> guard.lookup("inside.test"))
                        .getMessage());
    }

    @Test
    void readsAddressSpellingsItselfInsteadOfAskingTheResolver() throws UnknownHostException {
        Dns noLookups = host -> fail("the resolver was asked for " + host);
        AddressGuard guard = new AddressGuard(AllowedHosts.parse(List.of("192.0.2.0/24")), noLookups);

        assertEquals(addresses("192.0.2.1"), guard.lookup("0xc0.0x0.0x2.1"));
        assertEquals(
                "0x7f.1 is at 127.0.0.1, a loopback address",
                assertThrows(InternalAddressException.class, () -> guard.lookup("0x7f.1"))
                        .getMessage());
    }

    @Test
    void refusesAConnectionToAnInternalAddressBeforeWritingTheRequest() throws IOException {
        // The client resolves without the guard, as a DNS answer that changed between check and connect would
        // look: only the network interceptor stands between the request and the server.
        try (MockWebServer server = new MockWebServer()) {
            server.start(InetAddress.getLoopbackAddress(), 0);
            server.enqueue(new MockResponse().setBody("page"));
            HttpUrl url = server.url("/").newBuilder().host("rebind.test").build();
            Dns rebinding = TestResolver.of(Map.of("rebind.test", List.of("127.0.0.1")));

            InternalAddressException refusal =
                    assertThrows(InternalAddressException.class, () -> get(client(AllowedHosts.NONE, rebinding), url));
            String allowed = get(client(AllowedHosts.parse(List.of("127.0.0.0/8")), rebinding), url);

            // One request reached the server: the allowed one. The refused connection wrote nothing.
            assertEquals(
                    List.of("rebind.test is at 127.0.0.1, a loopback address", "page", 1),
                    List.of(refusal.getMessage(), allowed, server.getRequestCount()));
        }
    }

    private static OkHttpClient client(AllowedHosts allowed, Dns resolver) {
        return new OkHttpClient.Builder()
                .proxy(Proxy.NO_PROXY)
                .dns(resolver)
                .addNetworkInterceptor(new AddressGuard(allowed, TestResolver.none()))
                .build();
    }

    private static String get(OkHttpClient client, HttpUrl url) throws IOException {
        try (Response response =
                client.newCall(new Request.Builder().url(url).build()).execute()) {
            return response.body().string();
        }
    }
}
