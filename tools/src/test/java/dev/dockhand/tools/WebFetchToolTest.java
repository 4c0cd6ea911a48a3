package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Optional;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebFetchToolTest {
    @TempDir
    Path workspace;

    private final MockWebServer server = new MockWebServer();
    private final WebFetchTool tool = new WebFetchTool();

    @BeforeEach
    void start() throws IOException {
        server.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() throws IOException {
        server.shutdown();
    }

    private ToolResult fetch(String url, String prompt) {
        return tool.execute(
                new WebFetchTool.Params(url, prompt),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
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
        String url = server.url("/guide").toString();

        ToolResult result = fetch(url, null);

        assertEquals(
                ToolResult.success(
                        "Fetched " + url + " (text/html).\n\n# Guide\n\n# Install\n\nRun make then"
                                + " see the next step (" + server.url("/docs/next")
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
                "Fetched " + server.url("/a.txt") + " (text/plain).\n\njust text\n",
                fetch(server.url("/a.txt").toString(), null).llmContent());
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

        String text = fetch(server.url("/long").toString(), "how to configure retries maxRetries")
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
                ToolResult.error(
                        ToolErrorType.EXECUTION_FAILED, "Fetching " + server.url("/gone") + " failed: HTTP 404."),
                fetch(server.url("/gone").toString(), null));
        assertEquals(
                ToolResult.error(
                        ToolErrorType.EXECUTION_FAILED,
                        server.url("/logo.png") + " is image/png," + " not a text page; web_fetch only reads text."),
                fetch(server.url("/logo.png").toString(), null));
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
}
