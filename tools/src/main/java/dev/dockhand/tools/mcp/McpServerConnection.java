package dev.dockhand.tools.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dockhand.core.Cancellation;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.Field;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One MCP server: started ({@link #start}), its tools listed, called, and stopped with its whole process tree. A
 * server that failed to start or has stopped answers every call with an error naming why, with its stderr's last
 * lines.
 */
final class McpServerConnection implements AutoCloseable {
    private static final int STDERR_TAIL_LINES = 20;
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());

    private final McpServerSpec spec;
    private final Path workingDirectory;
    private final Deque<String> stderr = new ArrayDeque<>();
    private volatile McpAsyncClient client;
    private volatile McpClientTransport transport;
    private volatile Process process;
    private volatile String failure;
    private volatile List<McpSchema.Tool> tools = List.of();

    McpServerConnection(McpServerSpec spec, Path workingDirectory) {
        this.spec = spec;
        this.workingDirectory = workingDirectory;
    }

    McpServerSpec spec() {
        return spec;
    }

    /** Why the server is not usable, when it is not. */
    Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /** The server's tools, as it listed them at start-up; empty when it failed. */
    List<McpSchema.Tool> tools() {
        return tools;
    }

    /** Connects, initialises and lists the tools, within {@code startTimeout}; records the failure otherwise. */
    void start(Duration startTimeout) {
        try {
            if (spec.transport().equals("stdio") && !runnable(spec.command())) {
                throw new IllegalStateException("there is no program " + spec.command());
            }
            transport = transport();
            McpAsyncClient started = McpClient.async(transport)
                    .clientInfo(McpSchema.Implementation.builder("dockhand", "0.1.0")
                            .build())
                    // Listing tools at start-up gets the start-up time even when calls are given less; each call's
                    // own limit is kept by call().
                    .requestTimeout(spec.timeout().compareTo(startTimeout) > 0 ? spec.timeout() : startTimeout)
                    .initializationTimeout(startTimeout)
                    .jsonSchemaValidator(new AcceptingSchemaValidator())
                    .build();
            client = started;
            awaitInitialized(started.initialize().toFuture(), startTimeout);
            process = processOf(transport);
            List<McpSchema.Tool> listed = new ArrayList<>();
            String cursor = null;
            do {
                McpSchema.ListToolsResult page = started.listTools(cursor).block(startTimeout);
                listed.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            tools = List.copyOf(listed);
        } catch (RuntimeException | ExecutionException e) {
            failure = "did not start: " + reason(e) + "." + stderrTail();
            close();
        } catch (InterruptedException e) {
            failure = "did not start: interrupted";
            close();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether {@code command} names a program that can run: a path that is an executable file, or a bare name found
     * on the PATH. Without this check a missing program would be reported only when the start-up time-out ends,
     * with the SDK's "failed to initialize".
     */
    private boolean runnable(String command) {
        if (command.contains("/")) {
            Path path = Path.of(command);
            return !path.isAbsolute() || java.nio.file.Files.isExecutable(path);
        }
        String searched = spec.env().getOrDefault("PATH", System.getenv("PATH"));
        if (searched == null) {
            return true;
        }
        for (String folder : searched.split(java.io.File.pathSeparator)) {
            if (!folder.isEmpty() && java.nio.file.Files.isExecutable(Path.of(folder, command))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits for the server's answer to {@code initialize}, but not for the whole start-up time-out when its process
     * has already exited (a missing token, a wrong path): then it waits only for the SDK to see the end of its
     * output, by which time the stderr tail has been read too.
     */
    private void awaitInitialized(CompletableFuture<?> initialized, Duration startTimeout)
            throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (true) {
            try {
                initialized.get(200, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                Process started = processOf(transport);
                if (started != null && !started.isAlive()) {
                    try {
                        initialized.get(2, TimeUnit.SECONDS);
                    } catch (TimeoutException | ExecutionException ended) {
                        // The output's end fails initialisation; the exit code says more.
                    }
                    throw new IllegalStateException("its process exited with code " + started.exitValue());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no answer within " + startTimeout.toSeconds() + " s");
                }
            }
        }
    }

    /** Calls {@code tool} and waits for its result, at most the server's timeout, or until the call is cancelled. */
    McpSchema.CallToolResult call(String tool, Map<String, Object> arguments, Cancellation cancellation)
            throws InterruptedException, McpCallException {
        McpAsyncClient current = client;
        if (current == null || failure != null) {
            throw new McpCallException("The MCP server '" + spec.name() + "' is not running: " + failure);
        }
        CompletableFuture<McpSchema.CallToolResult> future = current.callTool(McpSchema.CallToolRequest.builder(tool)
                        .arguments(arguments)
                        .build())
                .toFuture();
        // Dropping the SDK's subscription ends its wait for the answer.
        try (Cancellation.Registration stop = cancellation.onCancel(() -> future.cancel(true))) {
            return await(future, tool);
        } catch (CancellationException e) {
            throw new McpCallException("The " + tool + " call was cancelled.");
        } catch (InterruptedException e) {
            future.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw new McpCallException(stoppedOrFailed(tool, reason(e.getCause())));
        }
    }

    /**
     * The call's result, waiting at most the server's timeout, and not at all once its process has exited: the SDK
     * does not fail a pending call when the server dies, so without this check a crash would wait out the timeout.
     */
    private McpSchema.CallToolResult await(CompletableFuture<McpSchema.CallToolResult> future, String tool)
            throws InterruptedException, ExecutionException, McpCallException {
        long deadline = System.nanoTime() + spec.timeout().toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            try {
                return future.get(
                        Math.max(1, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200))), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                Process running = process;
                if (running != null && !running.isAlive()) {
                    future.cancel(true);
                    throw new McpCallException(stoppedOrFailed(tool, "no answer"));
                }
                if (System.nanoTime() >= deadline) {
                    future.cancel(true);
                    throw new McpCallException("The MCP server '" + spec.name() + "' did not answer the " + tool
                            + " call within " + describe(spec.timeout()) + ".");
                }
            }
        }
    }

    private String stoppedOrFailed(String tool, String reason) {
        Process running = process;
        if (running != null && !running.isAlive()) {
            failure = "stopped with exit code " + running.exitValue();
            return "The MCP server '" + spec.name() + "' " + failure + ", so the " + tool
                    + " call did not run to the end." + stderrTail();
        }
        return "The MCP server '" + spec.name() + "' failed the " + tool + " call: " + reason;
    }

    /** A call that did not come back with a result, with the sentence for the model. */
    static final class McpCallException extends Exception {
        private static final long serialVersionUID = 1L;

        McpCallException(String message) {
            super(message);
        }
    }

    private McpClientTransport transport() {
        return switch (spec.transport()) {
            case "stdio" -> {
                ServerParameters parameters = ServerParameters.builder(spec.command())
                        .args(spec.args())
                        .env(spec.env())
                        .build();
                Path directory = spec.cwd().map(workingDirectory::resolve).orElse(workingDirectory);
                StdioClientTransport stdio = new StdioClientTransport(parameters, JSON) {
                    @Override
                    protected ProcessBuilder getProcessBuilder() {
                        return super.getProcessBuilder().directory(directory.toFile());
                    }
                };
                stdio.setStdErrorHandler(this::stderrLine);
                yield stdio;
            }
            default -> HttpClientStreamableHttpTransport.builder(spec.url())
                    .jsonMapper(JSON)
                    .requestBuilder(headers())
                    .build();
        };
    }

    private HttpRequest.Builder headers() {
        HttpRequest.Builder builder = HttpRequest.newBuilder();
        spec.headers().forEach(builder::header);
        return builder;
    }

    private void stderrLine(String line) {
        synchronized (stderr) {
            stderr.addLast(line);
            while (stderr.size() > STDERR_TAIL_LINES) {
                stderr.removeFirst();
            }
        }
    }

    /** The last lines the server wrote to stderr, as a sentence tail, or "" when it wrote none. */
    String stderrTail() {
        synchronized (stderr) {
            return stderr.isEmpty() ? "" : " Its stderr ended with:\n" + String.join("\n", stderr);
        }
    }

    /**
     * The server's process, for stopping its children too: the SDK keeps it private and stops only the process
     * itself, which leaves the node or python a launcher such as npx or uvx started running.
     */
    private static Process processOf(McpClientTransport transport) {
        if (!(transport instanceof StdioClientTransport)) {
            return null;
        }
        try {
            Field field = StdioClientTransport.class.getDeclaredField("process");
            field.setAccessible(true);
            return (Process) field.get(transport);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static String reason(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null
                && (cause.getMessage() == null
                        || cause instanceof ExecutionException
                        || cause instanceof CompletionException)) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        if (cause instanceof TimeoutException || (message != null && message.contains("Did not observe any item"))) {
            return "no answer in time";
        }
        return message == null ? cause.getClass().getSimpleName() : message;
    }

    private static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds >= 60 && seconds % 60 == 0 ? (seconds / 60) + " min" : duration.toMillis() + " ms";
    }

    /** Closes the session and kills the process tree, children first. */
    @Override
    public void close() {
        Process running = process != null ? process : processOf(transport);
        List<ProcessHandle> tree =
                running == null ? List.of() : running.descendants().toList();
        McpAsyncClient current = client;
        if (current != null) {
            try {
                current.closeGracefully().block(Duration.ofSeconds(2));
            } catch (RuntimeException e) {
                current.close();
            }
        }
        for (ProcessHandle child : tree) {
            child.destroyForcibly();
        }
        if (running != null) {
            running.destroyForcibly();
        }
    }
}
