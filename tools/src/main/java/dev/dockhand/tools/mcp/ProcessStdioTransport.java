package dev.dockhand.tools.mcp;

import dev.dockhand.core.Utf16;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
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
 * already running: one started on this machine or one the sandbox started in its container. The SDK's own stdio
 * transport starts its process itself and reads its stderr a whole line at a time, however long the line, so a server
 * printing one endless line would grow this JVM's heap without bound; this one reads both streams through {@link
 * BoundedLines}. Messages go out one at a time, in the order they were sent; lines on stdout that are not JSON-RPC go
 * with stderr's, where a failed start reports them.
 */
final class ProcessStdioTransport implements McpClientTransport {
    /** How long the messages already sent may take to go out before the server is stopped. */
    private static final long FLUSH_MILLIS = 1_000;
    /** The longest JSON-RPC message read from stdout; the SDK's own stdio transport takes 16 MB. */
    static final int MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
    /** The longest stderr line kept: a log line, not a dump. */
    static final int MAX_STDERR_LINE_BYTES = 4 * 1024;

    private final Process process;
    private final McpJsonMapper json;
    private final Consumer<String> stderr;
    private final String name;
    private final ExecutorService writer;
    private final OutputStream stdin;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final int maxMessageBytes;
    private final int maxStderrLineBytes;
    private volatile Consumer<Throwable> exceptionHandler = error -> {};

    /**
     * @param name what the reading threads are named after (the server's name)
     * @param stderr takes each line the process writes to stderr
     */
    ProcessStdioTransport(Process process, McpJsonMapper json, String name, Consumer<String> stderr) {
        this(process, json, name, stderr, MAX_MESSAGE_BYTES, MAX_STDERR_LINE_BYTES);
    }

    ProcessStdioTransport(
            Process process,
            McpJsonMapper json,
            String name,
            Consumer<String> stderr,
            int maxMessageBytes,
            int maxStderrLineBytes) {
        this.maxMessageBytes = maxMessageBytes;
        this.maxStderrLineBytes = maxStderrLineBytes;
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

    /**
     * Hands each message on stdout to the client, in order, until the stream ends. A line over the message limit is
     * dropped, said in the stderr tail as a protocol error, and reading goes on at the next line: the request it
     * answered then times out like one the server never answered.
     */
    private void readMessages(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (var stdout = process.getInputStream()) {
            BoundedLines lines = new BoundedLines(stdout, maxMessageBytes);
            BoundedLines.Line read;
            while ((read = lines.next()) != null) {
                if (read.cut()) {
                    stderr.accept("[protocol error: a message on stdout was dropped: it ran past the " + maxMessageBytes
                            + " bytes a message may be]");
                    continue;
                }
                String line = read.text();
                if (line.isBlank()) {
                    continue;
                }
                McpSchema.JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, line);
                } catch (IOException | IllegalArgumentException e) {
                    // A server that prints a banner or a log line on stdout: said with its stderr, for a failed start,
                    // cut as a stderr line is.
                    stderr.accept(
                            line.length() > maxStderrLineBytes
                                    ? Utf16.head(line, maxStderrLineBytes) + " … ["
                                            + (line.length() - maxStderrLineBytes) + " more characters]"
                                    : line);
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

    /** Hands each stderr line on, cut to its limit with a note of how much was left out. */
    private void readStderr() {
        try (var errors = process.getErrorStream()) {
            BoundedLines lines = new BoundedLines(errors, maxStderrLineBytes);
            BoundedLines.Line read;
            while ((read = lines.next()) != null) {
                stderr.accept(read.cut() ? read.text() + " … [" + read.dropped() + " more bytes]" : read.text());
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
     * startAttached}), so waiting for that would only add a delay to every stop, and one on this machine has its whole
     * process tree killed by the connection anyway.
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
