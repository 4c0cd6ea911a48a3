package dev.dockhand.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.dockhand.cli.testing.ScriptedServer;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Part of the sandbox benchmark: the first {@code run_shell_command} of a session against the warm ones after it,
 * through the real launcher with the Docker sandbox. The scripted model takes {@code firstReplyDelayMillis} to answer
 * the first prompt, as a real one thinks, and then asks for {@code true} once per round; each call's time is the one
 * Dockhand reports for it ({@code --output-format json}, {@code tool_calls[].duration_ms}). The container starts when
 * the session opens, so with a model that thinks for a second the first command should find it running.
 */
final class FirstCommandBenchmark {
    private FirstCommandBenchmark() {}

    /** One session: its first command's time and those of the warm commands after it, in ms. */
    record Session(long firstMillis, List<Long> warmMillis) {}

    /** Runs {@code sessions} sessions of {@code 1 + warmCommands} commands each. */
    static List<Session> sessions(Path launcher, int sessions, int warmCommands, long firstReplyDelayMillis)
            throws Exception {
        Path workspace = BenchFiles.temporaryFolder("dockhand-bench-first");
        try {
            List<Session> measured = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                measured.add(session(launcher, workspace, warmCommands, firstReplyDelayMillis));
            }
            return measured;
        } finally {
            BenchFiles.deleteTree(workspace);
        }
    }

    private static Session session(Path launcher, Path workspace, int warmCommands, long delayMillis) throws Exception {
        List<String> replies = new ArrayList<>();
        for (int i = 1; i <= 1 + warmCommands; i++) {
            // A different call each round: identical ones would (rightly) trip the loop guard.
            replies.add(ScriptedServer.toolCall("c" + i, "run_shell_command", "{\"command\":\"true " + i + "\"}"));
        }
        replies.add(ScriptedServer.answer("Done."));
        try (Model model = new Model(replies, delayMillis)) {
            ProcessBuilder builder = new ProcessBuilder(
                            launcher.toString(),
                            "--sandbox",
                            "docker",
                            "--yolo",
                            "--model",
                            "bench",
                            "--base-url",
                            model.baseUrl(),
                            "--output-format",
                            "json",
                            "-p",
                            "Run true a few times.")
                    .directory(workspace.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().put("OPENAI_API_KEY", "bench");
            builder.environment()
                    .put("DOCKHAND_HOME", workspace.resolve(".dockhand").toString());
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("dockhand with the Docker sandbox failed in the benchmark: " + out);
            }
            return parse(out, warmCommands);
        }
    }

    /** The calls' times from the run's JSON result. */
    static Session parse(String result, int warmCommands) {
        JsonNode calls = Json.read(result.strip()).path("tool_calls");
        if (calls.size() != 1 + warmCommands) {
            throw new IllegalStateException("expected " + (1 + warmCommands) + " commands, the run made " + result);
        }
        List<Long> warm = new ArrayList<>();
        for (int i = 1; i < calls.size(); i++) {
            warm.add(calls.get(i).path("duration_ms").asLong());
        }
        return new Session(calls.get(0).path("duration_ms").asLong(), warm);
    }

    /** Replays the replies in order, the first after a delay. */
    private static final class Model implements AutoCloseable {
        private final HttpServer server;
        private int requests;

        Model(List<String> replies, long firstDelayMillis) throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            server.setExecutor(Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "scripted-model");
                thread.setDaemon(true);
                return thread;
            }));
            server.createContext("/", exchange -> {
                try (InputStream in = exchange.getRequestBody()) {
                    in.readAllBytes();
                }
                int request = requests++;
                if (request == 0 && firstDelayMillis > 0) {
                    try {
                        Thread.sleep(firstDelayMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                byte[] body = replies.get(Math.min(request, replies.size() - 1)).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream stream = exchange.getResponseBody()) {
                    stream.write(body);
                }
            });
            server.start();
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
