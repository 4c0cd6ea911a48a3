package dev.dockhand.tools.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The stdio transport of MCP (one JSON-RPC message a line each way, stderr free for logs) over a process that is
 * already running: one the sandbox started in its container. The SDK's own stdio transport starts its process from a
 * {@link ProcessBuilder} on this machine and cannot be given another, so this one does the same framing over any
 * {@link Process}. Messages go out one at a time, in the order they were sent; lines on stdout that are not JSON-RPC
 * go with stderr's, where a failed start reports them.
 */
final class ProcessStdioTransport implements McpClientTransport {
    /** How long the messages already sent may take to go out before the server is stopped. */
    private static final long FLUSH_MILLIS = 1_000;

    private final Process process;
    private final McpJsonMapper json;
    private final Consumer<String> stderr;
    private final String name;
    private final ExecutorService writer;
    private final OutputStream stdin;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile Consumer<Throwable> exceptionHandler = error -> {};

    /**
     * @param name what the reading threads are named after (the server's name)
     * @param stderr takes each line the process writes to stderr
     */
    ProcessStdioTransport(Process process, McpJsonMapper json, String name, Consumer<String> stderr) {
        this.process = process;
        this.json = json;
        this.name = name;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        this.writer = Executors.newSingleThreadExecutor(runnable -> daemon(runnable, "mcp-stdin-" + name));
    }

    /** The process the messages go to. */
    Process process() {
        return process;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            daemon(() -> readMessages(handler), "mcp-stdout-" + name).start();
            daemon(this::readStderr, "mcp-stderr-" + name).start();
        });
    }

    /** Hands each message on stdout to the client, in order, until the stream ends. */
    private void readMessages(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                McpSchema.JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, line);
                } catch (IOException | IllegalArgumentException e) {
                    // A server that prints a banner or a log line on stdout: said with its stderr, for a failed start.
                    stderr.accept(line);
                    continue;
                }
                // The client's own failures to handle a message are its to report; the next message is read anyway.
                handler.apply(Mono.just(message)).subscribe(ignored -> {}, error -> {});
            }
        } catch (IOException e) {
            if (!closing.get()) {
                exceptionHandler.accept(e);
            }
        }
    }

    private void readStderr() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                stderr.accept(line);
            }
        } catch (IOException e) {
            // The stream broke as the process went: the tail read so far is what there is.
        }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromFuture(() -> CompletableFuture.runAsync(() -> write(message), writer));
    }

    private void write(McpSchema.JSONRPCMessage message) {
        try {
            String line = json.writeValueAsString(message);
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the MCP server '" + name + "' no longer reads its input", e);
        }
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        exceptionHandler = handler;
    }

    /**
     * Ends the server's stdin after the messages already sent, then kills it with every process it started. It is not
     * given time to exit by itself: a program in the sandbox never sees its input end (see the sandbox's {@code
     * startAttached}), so waiting for that would only add a delay to every stop.
     */
    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(() -> {
                    if (!closing.compareAndSet(false, true)) {
                        return;
                    }
                    writer.execute(() -> {
                        try {
                            stdin.close();
                        } catch (IOException e) {
                            // Already closed: the process has gone.
                        }
                    });
                    writer.shutdown();
                    try {
                        writer.awaitTermination(FLUSH_MILLIS, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    process.destroyForcibly();
                })
                .subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
