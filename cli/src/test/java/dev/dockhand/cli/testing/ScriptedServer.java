package dev.dockhand.cli.testing;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * A model that answers instantly on 127.0.0.1, for benchmarks and the cli's process tests: it replays
 * OpenAI-style SSE replies in order and records when each request arrived, how big it was, and when its reply ended.
 */
public final class ScriptedServer implements AutoCloseable {
    private final HttpServer server;
    private final List<String> replies;
    private final List<Exchange> exchanges = new ArrayList<>();

    /** One request: its size, when it arrived, and when its reply was fully written. */
    public record Exchange(int requestBytes, long arrivedNanos, long answeredNanos) {}

    public ScriptedServer(List<String> replies) throws IOException {
        this(replies, null);
    }

    /** Serves https with {@code tls} when it is not null, else plain http. */
    public ScriptedServer(List<String> replies, SSLContext tls) throws IOException {
        this.replies = List.copyOf(replies);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(address, 16);
        } else {
            HttpsServer https = HttpsServer.create(address, 16);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        }
        server.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "scripted-model");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", exchange -> {
            long arrived = System.nanoTime();
            byte[] request;
            try (InputStream in = exchange.getRequestBody()) {
                request = in.readAllBytes();
            }
            String reply;
            synchronized (exchanges) {
                reply = replies.get(Math.min(exchanges.size(), replies.size() - 1));
            }
            byte[] body = reply.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            synchronized (exchanges) {
                exchanges.add(new Exchange(request.length, arrived, System.nanoTime()));
            }
        });
        server.start();
    }

    /** The base URL to give Dockhand, like {@code http://127.0.0.1:PORT/v1}. */
    public String baseUrl() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public List<Exchange> exchanges() {
        synchronized (exchanges) {
            return List.copyOf(exchanges);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** A text answer as one SSE reply. */
    public static String answer(String text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":" + quote(text)
                + "},\"finish_reason\":null}]}\n\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2}}\n\n"
                + "data: [DONE]\n\n";
    }

    /** One tool call as one SSE reply. */
    public static String toolCall(String id, String name, String arguments) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"" + id
                + "\",\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"arguments\":" + quote(arguments)
                + "}}]},\"finish_reason\":null}]}\n\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
                + "data: [DONE]\n\n";
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
