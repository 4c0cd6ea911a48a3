package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.tools.InternalAddressException.Hop;
import java.io.IOException;
import java.net.Proxy;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import okhttp3.Call;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;

/**
 * Fetches one http(s) URL and returns its text: HTML turned into readable text, other text as it is. Downloads are
 * capped in size and time; other schemes are refused. With a prompt, a page too long for the budget keeps the
 * passages that speak of it. Addresses inside the user's machine or network are refused, whether asked for, redirected
 * to or resolved to, unless the user allowed them ({@link AddressGuard}). A redirect to another host is returned to the
 * model rather than followed, so that the fetch of that host goes through the user's rules and approval.
 */
public final class WebFetchTool extends BaseTool<WebFetchTool.Params> {
    public static final String NAME = "web_fetch";
    private static final String DESCRIPTION =
            "Fetch a web page (http/https GET) and return it as readable text: documentation, an issue, an API"
                    + " reference. At most 5 MB is downloaded.";
    static final long MAX_BYTES = 5L * 1024 * 1024;
    static final int MAX_TEXT_CHARS = 20_000;

    /** The model's arguments. */
    public record Params(String url, String prompt) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required("url", Schema.string("The http or https URL to fetch."))
            .optional(
                    "prompt",
                    Schema.string("What you are looking for on the page; when the page is long, the"
                            + " passages about it are kept."))
            .build();

    /** Redirects within one host followed before giving up; each is checked like the URL asked for. */
    static final int MAX_REDIRECTS = 10;

    private final AddressGuard guard;

    /** Built on first use: an HTTP client sets up TLS, which every run would otherwise pay for at start-up. */
    private volatile OkHttpClient http;

    /** A web_fetch that reaches no internal address. */
    public WebFetchTool() {
        this(List.of());
    }

    /**
     * A web_fetch that may also reach the internal hosts in {@code allowedHosts}: host names ({@code localhost},
     * {@code wiki.corp.example}, matched whole and without case), IP addresses ({@code 127.0.0.1}, {@code fd00::1})
     * and CIDR blocks ({@code 10.0.0.0/8}, {@code fd00::/8}).
     *
     * @throws IllegalArgumentException with one sentence naming the first entry that is none of those
     */
    public WebFetchTool(List<String> allowedHosts) {
        this(AllowedHosts.parse(allowedHosts), Dns.SYSTEM);
    }

    /** Tests give a resolver of their own, so that no name reaches real DNS. */
    WebFetchTool(AllowedHosts allowedHosts, Dns resolver) {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.FETCH, Params.class);
        this.guard = new AddressGuard(allowedHosts, resolver);
    }

    private OkHttpClient http() {
        OkHttpClient client = http;
        if (client == null) {
            synchronized (this) {
                if (http == null) {
                    http = new OkHttpClient.Builder()
                            .connectTimeout(Duration.ofSeconds(10))
                            .readTimeout(Duration.ofSeconds(20))
                            .callTimeout(Duration.ofSeconds(30))
                            // Followed in execute instead, so that every hop is checked before it is requested.
                            .followRedirects(false)
                            .followSslRedirects(false)
                            // Through a proxy the socket's address is the proxy's and the proxy resolves the name:
                            // neither the guard's lookup nor its look at the connection would see the target.
                            .proxy(Proxy.NO_PROXY)
                            .dns(guard)
                            .addNetworkInterceptor(guard)
                            .build();
                }
                client = http;
            }
        }
        return client;
    }

    @Override
    public Optional<String> validate(Params params) {
        HttpUrl url = HttpUrl.parse(params.url());
        return url == null
                ? Optional.of("only http and https URLs can be fetched, not '" + params.url() + "'.")
                : Optional.empty();
    }

    @Override
    public String summarize(Params params) {
        return params.url();
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        HttpUrl url = HttpUrl.get(params.url());
        Hop hop = Hop.FIRST;
        try {
            for (int redirects = 0; ; redirects++) {
                guard.checkHost(url.host());
                Call call = http().newCall(request(url));
                try (var ignored = context.cancellation().onCancel(call::cancel);
                        Response response = call.execute()) {
                    String location = response.isRedirect() ? response.header("Location") : null;
                    if (location == null) {
                        return outcome(params, response);
                    }
                    HttpUrl next = response.request().url().resolve(location);
                    if (next == null || redirects == MAX_REDIRECTS) {
                        // The server's Location is not quoted: it is the server's text, not the model's.
                        return ToolResult.error(
                                ToolErrorType.EXECUTION_FAILED,
                                "Fetching " + params.url() + " failed: "
                                        + (next == null
                                                ? "it redirected to something other than an http(s) URL."
                                                : "it redirected more than " + MAX_REDIRECTS + " times."));
                    }
                    if (!next.host().equals(url.host())) {
                        return elsewhere(params, next);
                    }
                    url = next;
                    hop = Hop.REDIRECT;
                }
            }
        } catch (InternalAddressException e) {
            return ToolResult.error(ToolErrorType.NOT_APPROVED, e.explain(params.url(), hop));
        } catch (IOException e) {
            if (context.cancellation().isCancelled()) {
                return ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled the fetch.");
            }
            return ToolResult.error(
                    ToolErrorType.EXECUTION_FAILED, "Fetching " + params.url() + " failed: " + e.getMessage() + ".");
        }
    }

    /**
     * A redirect to another host is not followed but told to the model, which can fetch it with a call of its own: the
     * user's permission rules and approval name a fetch's host, and a host they allowed (or did not deny) must not
     * lead the fetch to one they would refuse. Within one host, redirects are followed.
     */
    private static ToolResult elsewhere(Params params, HttpUrl next) {
        return ToolResult.success(
                params.url() + " redirected to " + next + ", on another host (" + next.host() + "). The redirect was"
                        + " not followed: to read that page, call web_fetch with that URL.",
                "redirected to " + next.host() + ", not followed");
    }

    private static Request request(HttpUrl url) {
        return new Request.Builder()
                .url(url)
                .header("User-Agent", "dockhand")
                .header("Accept", "text/html, text/plain, application/json;q=0.9, */*;q=0.5")
                .build();
    }

    private static ToolResult outcome(Params params, Response response) throws IOException {
        if (!response.isSuccessful()) {
            return ToolResult.error(
                    ToolErrorType.EXECUTION_FAILED,
                    "Fetching " + params.url() + " failed: HTTP " + response.code() + ".");
        }
        return page(params, response);
    }

    private static ToolResult page(Params params, Response response) throws IOException {
        ResponseBody body = response.body();
        MediaType type = body == null ? null : body.contentType();
        String kind = type == null ? "text/plain" : (type.type() + "/" + type.subtype()).toLowerCase(Locale.ROOT);
        if (!isText(kind)) {
            return ToolResult.error(
                    ToolErrorType.EXECUTION_FAILED,
                    params.url() + " is " + kind + ", not a text page; web_fetch only reads text.");
        }
        BufferedSource source = body.source();
        source.request(MAX_BYTES + 1);
        Buffer buffer = source.getBuffer();
        boolean cut = buffer.size() > MAX_BYTES;
        Charset charset = type == null ? StandardCharsets.UTF_8 : type.charset(StandardCharsets.UTF_8);
        String raw = buffer.clone().readString(Math.min(buffer.size(), MAX_BYTES), charset);
        String text = kind.contains("html")
                ? HtmlText.convert(raw, response.request().url().toString())
                : raw;
        if (text.length() > MAX_TEXT_CHARS) {
            text = Passages.select(text, params.prompt(), MAX_TEXT_CHARS);
        }
        String header = "Fetched " + response.request().url() + " (" + kind + (cut ? ", first 5 MB" : "") + ").\n"
                + (params.prompt() == null ? "" : "Looking for: " + params.prompt() + "\n") + "\n";
        return ToolResult.success(header + text, "fetched " + TextFiles.size(Math.min(buffer.size(), MAX_BYTES)));
    }

    private static boolean isText(String kind) {
        return kind.startsWith("text/")
                || kind.contains("json")
                || kind.contains("xml")
                || kind.equals("application/javascript");
    }
}
