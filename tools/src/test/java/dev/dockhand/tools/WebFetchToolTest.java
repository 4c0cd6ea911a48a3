package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.HttpUrl;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebFetchToolTest {
    @TempDir
    Path workspace;

    private final MockWebServer server = new MockWebServer();
    /** The tests' own server is internal, so they allow it; the resolver knows no names, so none reaches DNS. */
    private final WebFetchTool tool = new WebFetchTool(AllowedHosts.parse(List.of("127.0.0.1")), TestResolver.none());

    @BeforeEach
    void start() throws IOException {
        server.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() throws IOException {
        server.shutdown();
    }

    private ToolResult fetch(String url, String prompt) {
        return fetch(tool, url, prompt);
    }

    private ToolResult fetch(WebFetchTool with, String url, String prompt) {
        return with.execute(
                new WebFetchTool.Params(url, prompt),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
    }

    /** The server's URL at 127.0.0.1: MockWebServer names its host "localhost", which would need a lookup. */
    private HttpUrl url(String path) {
        return server.url(path).newBuilder().host("127.0.0.1").build();
    }

    @Test
    void turnsHtmlIntoReadableText() {
        server.enqueue(
                new MockResponse()
                        .setHeader("Content-Type", "text/html; charset=utf-8")
                        .setBody(
                                """
                <html><head><title>Guide</title><script>var x = 1;</script></head>
                <body><nav>Home | About</nav><h1>Install</h1><p>Run <code>make</code> then see
                <a href="/docs/next">the next step</a>.</p><ul><li>one</li><li>two</li></ul>
                <pre>make install
                make test</pre></body></html>"""));
        String url = url("/guide").toString();

        ToolResult result = fetch(url, null);

        assertEquals(
                ToolResult.success(
                        "Fetched " + url + " (text/html).\n\n# Guide\n\n# Install\n\nRun make then"
                                + " see the next step (" + url("/docs/next")
                                + ").\n\n- one\n- two\n\n```\nmake install\nmake"
                                + " test\n```",
                        "fetched 270 B"),
                result);
    }

    @Test
    void returnsPlainTextAsItIs() {
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "text/plain").setBody("just text\n"));

        assertEquals(
                "Fetched " + url("/a.txt") + " (text/plain).\n\njust text\n",
                fetch(url("/a.txt").toString(), null).llmContent());
    }

    @Test
    void aLongPageCutInsideAnEmojiKeepsWholeCharacters() {
        // U+1F600 is two chars; the 20,000-char cut falls between them.
        server.enqueue(new MockResponse()
                .setHeader("Content-Type", "text/plain; charset=utf-8")
                .setBody("x".repeat(19_999) + "\uD83D\uDE00" + "y".repeat(100)));

        assertEquals(
                "Fetched " + url("/long.txt") + " (text/plain).\n\n" + "x".repeat(19_999)
                        + "\n\n[… the page continues; 102 more characters not shown]",
                fetch(url("/long.txt").toString(), null).llmContent());
    }

    @Test
    void keepsThePassagesAboutThePromptWhenThePageIsLong() {
        StringBuilder page = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            page.append("Filler paragraph number ").append(i).append(" about nothing in particular at all.\n\n");
        }
        page.append("The retry budget is configured with maxRetries in settings.\n\n");
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "text/plain").setBody(page.toString()));

        String text = fetch(url("/long").toString(), "how to configure retries maxRetries")
                .llmContent();

        assertTrue(text.contains("The retry budget is configured with maxRetries in settings."), text);
        assertTrue(text.contains("Looking for: how to configure retries maxRetries"), text);
        assertTrue(text.length() < WebFetchTool.MAX_TEXT_CHARS + 500, "length " + text.length());
    }

    @Test
    void reportsHttpErrorsAndNonTextContent() {
        server.enqueue(new MockResponse().setResponseCode(404));
        server.enqueue(new MockResponse().setHeader("Content-Type", "image/png").setBody("PNG"));

        assertEquals(
                ToolResult.error(ToolErrorType.EXECUTION_FAILED, "Fetching " + url("/gone") + " failed: HTTP 404."),
                fetch(url("/gone").toString(), null));
        assertEquals(
                ToolResult.error(
                        ToolErrorType.EXECUTION_FAILED,
                        url("/logo.png") + " is image/png," + " not a text page; web_fetch only reads text."),
                fetch(url("/logo.png").toString(), null));
    }

    @Test
    void refusesOtherSchemes() {
        assertEquals(
                Optional.of("only http and https URLs can be fetched, not 'file:///etc/passwd'."),
                tool.validate(new WebFetchTool.Params("file:///etc/passwd", null)));
        assertEquals(
                Optional.of("only http and https URLs can be fetched, not 'ftp://example.com/x'."),
                tool.validate(new WebFetchTool.Params("ftp://example.com/x", null)));
    }

    private static String refusal(String url, String where, String entry) {
        return "Fetching " + url + " was refused: " + where + " inside the user's machine or network. web_fetch does"
                + " not reach there unless the user allows it by adding \"" + entry + "\" to webFetch.allowedHosts in"
                + " ~/.dockhand/settings.json.";
    }

    @Test
    void refusesLoopbackUnlessTheUserAllowedIt() {
        server.enqueue(new MockResponse().setBody("secret"));
        String url = url("/secret").toString();

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED, refusal(url, "127.0.0.1 is a loopback address", "127.0.0.1")),
                fetch(new WebFetchTool(), url, null));
        assertEquals(0, server.getRequestCount());
    }

    @Test
    void refusesEverySpellingOfLoopbackAnAddressParserAccepts() {
        // Each spelling means 127.0.0.1 to the JDK and to the C library alike, so even a failed check could only
        // reach the test's own server.
        int port = server.getPort();
        WebFetchTool strict = new WebFetchTool(AllowedHosts.NONE, TestResolver.none());
        Map<String, String> expected = new LinkedHashMap<>();
        for (String host : List.of("2130706433", "127.1", "0x7f.1", "0x7f000001", "017700000001", "[::ffff:7f00:1]")) {
            String url = "http://" + host + ":" + port + "/";
            String named = host.startsWith("[") ? "127.0.0.1" : host + " (127.0.0.1)";
            expected.put(url, refusal(url, named + " is a loopback address", "127.0.0.1"));
            // Answers for a broken check to get, so that it fails at once rather than at the read time-out.
            server.enqueue(new MockResponse().setBody("reached"));
        }

        Map<String, String> actual = new LinkedHashMap<>();
        expected.keySet()
                .forEach(url -> actual.put(url, fetch(strict, url, null).llmContent()));
        assertEquals(expected, actual);
        assertEquals(0, server.getRequestCount());
    }

    @Test
    void refusesANameThatResolvesToLoopback() {
        WebFetchTool resolving =
                new WebFetchTool(AllowedHosts.NONE, TestResolver.of(Map.of("inside.test", List.of("127.0.0.1"))));
        server.enqueue(new MockResponse().setBody("reached"));
        String url = "http://inside.test:" + server.getPort() + "/";

        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        refusal(url, "inside.test (127.0.0.1) is a loopback address", "inside.test")),
                fetch(resolving, url, null));
        assertEquals(0, server.getRequestCount());
    }

    @Test
    void doesNotFollowARedirectFromAnAllowedHostToAnInternalAddress() throws InterruptedException {
        // docs.test is allowed and leads to the test's server; the redirect's target, the same server by its
        // address, is not allowed. Were the redirect followed, the second response would be fetched.
        WebFetchTool allowingDocs = new WebFetchTool(
                AllowedHosts.parse(List.of("docs.test")), TestResolver.of(Map.of("docs.test", List.of("127.0.0.1"))));
        server.enqueue(new MockResponse().setResponseCode(302).setHeader("Location", url("/secret")));
        server.enqueue(new MockResponse().setBody("secret"));
        String url = "http://docs.test:" + server.getPort() + "/start";

        assertEquals(
                ToolResult.success(
                        url + " redirected to " + url("/secret") + ", on another host (127.0.0.1). The redirect was"
                                + " not followed: to read that page, call web_fetch with that URL.",
                        "redirected to 127.0.0.1, not followed"),
                fetch(allowingDocs, url, null));
        assertEquals(List.of("/start", 1), List.of(server.takeRequest().getPath(), server.getRequestCount()));
        // Fetched on its own, the target meets the guard like any URL the model names.
        assertEquals(
                ToolResult.error(
                        ToolErrorType.NOT_APPROVED,
                        refusal(url("/secret").toString(), "127.0.0.1 is a loopback address", "127.0.0.1")),
                fetch(allowingDocs, url("/secret").toString(), null));
    }

    @Test
    void returnsARedirectToAnotherHostToTheModelInsteadOfFollowingIt() throws InterruptedException {
        // Both names lead to the test's server and both are allowed: only the host named in the call, which the
        // user's domain rules and approval saw, is fetched.
        WebFetchTool allowingBoth = new WebFetchTool(
                AllowedHosts.parse(List.of("docs.test", "evil.test")),
                TestResolver.of(Map.of("docs.test", List.of("127.0.0.1"), "evil.test", List.of("127.0.0.1"))));
        String target = "http://evil.test:" + server.getPort() + "/collect?d=1";
        server.enqueue(new MockResponse().setResponseCode(301).setHeader("Location", target));
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "text/plain").setBody("collected"));
        String url = "http://docs.test:" + server.getPort() + "/start";

        assertEquals(
                ToolResult.success(
                        url + " redirected to " + target + ", on another host (evil.test). The redirect was not"
                                + " followed: to read that page, call web_fetch with that URL.",
                        "redirected to evil.test, not followed"),
                fetch(allowingBoth, url, null));
        assertEquals(List.of("/start", 1), List.of(server.takeRequest().getPath(), server.getRequestCount()));
    }

    @Test
    void followsRedirectsWithinWhatIsAllowed() {
        server.enqueue(new MockResponse().setResponseCode(301).setHeader("Location", "/new"));
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "text/plain").setBody("moved here\n"));

        assertEquals(
                "Fetched " + url("/new") + " (text/plain).\n\nmoved here\n",
                fetch(url("/old").toString(), null).llmContent());
    }

    @Test
    void fetchesAnInternalServerTheUserAllowedByNameOrBlock() {
        WebFetchTool byName = new WebFetchTool(
                AllowedHosts.parse(List.of("localhost")), TestResolver.of(Map.of("localhost", List.of("127.0.0.1"))));
        WebFetchTool byBlock = new WebFetchTool(AllowedHosts.parse(List.of("127.0.0.0/8")), TestResolver.none());
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "text/plain").setBody("one"));
        server.enqueue(
                new MockResponse().setHeader("Content-Type", "text/plain").setBody("two"));
        String named = "http://localhost:" + server.getPort() + "/";

        assertEquals(
                List.of("Fetched " + named + " (text/plain).\n\none", "Fetched " + url("/") + " (text/plain).\n\ntwo"),
                List.of(
                        fetch(byName, named, null).llmContent(),
                        fetch(byBlock, url("/").toString(), null).llmContent()));
    }

    @Test
    void stopsFollowingARedirectLoopAtTheLimit() {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return new MockResponse().setResponseCode(302).setHeader("Location", "/loop");
            }
        });

        assertEquals(
                ToolResult.error(
                        ToolErrorType.EXECUTION_FAILED,
                        "Fetching " + url("/loop") + " failed: it redirected more than 10 times."),
                fetch(url("/loop").toString(), null));
        assertEquals(WebFetchTool.MAX_REDIRECTS + 1, server.getRequestCount());
    }

    @Test
    void refusesARedirectToAnotherScheme() {
        server.enqueue(new MockResponse().setResponseCode(302).setHeader("Location", "file:///etc/passwd"));

        assertEquals(
                ToolResult.error(
                        ToolErrorType.EXECUTION_FAILED,
                        "Fetching " + url("/start") + " failed: it redirected to something other than an http(s)"
                                + " URL."),
                fetch(url("/start").toString(), null));
    }
}
