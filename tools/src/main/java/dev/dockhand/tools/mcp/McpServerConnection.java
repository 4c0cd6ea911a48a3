package dev.dockhand.tools.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.HostPrograms;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.OutputSink;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * One MCP server: started ({@link #start}), its tools listed, called, and stopped with its whole process tree. A
 * server that failed to start or has stopped answers every call with an error naming why, with its stderr's last
 * lines.
 */
final class McpServerConnection implements AutoCloseable {
    private static final int STDERR_TAIL_LINES = 20;
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new ObjectMapper());

    /** How long after a crash the one restart waits at least, so a server that dies at once is not hammered. */
    static final Duration RESTART_BACKOFF = Duration.ofSeconds(1);

    /** What the connection reports to the server set. */
    interface Listener {
        /** The server's tools changed: it started, said its list changed, or was restarted. */
        void toolsChanged(McpServerConnection connection);

        /** The server crashed and was started again ({@code failure} empty) or could not be. */
        void restarted(McpServerConnection connection);
    }

    private final McpServerSpec spec;
    private final Path workingDirectory;
    private final Listener listener;
    /** The session's sandbox once it is open, for a server that runs in it; null when the caller has none. */
    private final CompletableFuture<Sandbox> sandbox;

    private final Deque<String> stderr = new ArrayDeque<>();
    private final AtomicLong tokens = new AtomicLong();
    /** Each running call's sink for its progress, by the progress token the call was sent with. */
    private final Map<String, OutputSink> progress = new ConcurrentHashMap<>();

    private volatile McpAsyncClient client;
    private volatile McpClientTransport transport;
    private volatile CallTracker tracker;
    private volatile Process process;
    /** The folder a server on this machine was started in, removed with it when it was made for it. */
    private volatile HostServerFolder folder;

    private volatile String failure;
    private volatile List<McpSchema.Tool> tools = List.of();
    /** Set once initialise and the tool listing have both answered; the client exists before that, while starting. */
    private volatile boolean ready;

    private volatile Duration startTimeout = Duration.ofSeconds(30);
    private volatile boolean crashed;
    private volatile long crashedAt;
    private boolean restarted;

    McpServerConnection(
            McpServerSpec spec, Path workingDirectory, Listener listener, CompletableFuture<Sandbox> sandbox) {
        this.spec = spec;
        this.workingDirectory = workingDirectory;
        this.listener = listener;
        this.sandbox = sandbox;
    }

    McpServerSpec spec() {
        return spec;
    }

    /** Why the server is not usable, when it is not. */
    Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /** Whether the server has started and not failed since. */
    boolean connected() {
        return ready && client != null && failure == null;
    }

    /** The server's tools, as it listed them at start-up; empty when it failed. */
    List<McpSchema.Tool> tools() {
        return tools;
    }

    /** Connects, initialises and lists the tools, within {@code startTimeout}; records the failure otherwise. */
    void start(Duration startTimeout) {
        this.startTimeout = startTimeout;
        try {
            if (spec.transport().equals("stdio") && !spec.sandbox() && !runnable(spec.command())) {
                throw new IllegalStateException("there is no program " + spec.command());
            }
            tracker = new CallTracker(transport());
            transport = tracker;
            McpAsyncClient started = McpClient.async(tracker)
                    .clientInfo(McpSchema.Implementation.builder("dockhand", "0.1.0")
                            .build())
                    // Listing tools at start-up gets the start-up time even when calls are given less; each call's
                    // own limit is kept by call().
                    .requestTimeout(spec.timeout().compareTo(startTimeout) > 0 ? spec.timeout() : startTimeout)
                    .initializationTimeout(startTimeout)
                    .jsonSchemaValidator(new AcceptingSchemaValidator())
                    // The SDK lists the tools again on notifications/tools/list_changed and hands them here.
                    .toolsChangeConsumer(changed -> {
                        tools = List.copyOf(changed);
                        listener.toolsChanged(this);
                        return Mono.empty();
                    })
                    .progressConsumer(notification -> {
                        OutputSink sink = progress.get(String.valueOf(notification.progressToken()));
                        if (sink != null && notification.progress() != null) {
                            sink.progress(notification.progress(), notification.total(), notification.message());
                        }
                        return Mono.empty();
                    })
                    .build();
            client = started;
            awaitInitialized(started.initialize().toFuture(), startTimeout);
            process = processOf(tracker.inner());
            List<McpSchema.Tool> listed = new ArrayList<>();
            String cursor = null;
            do {
                McpSchema.ListToolsResult page = started.listTools(cursor).block(startTimeout);
                listed.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            tools = List.copyOf(listed);
            ready = true;
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
        return program(command).isPresent();
    }

    /**
     * A bare command name found in the absolute folders of the server's PATH (its {@code env}'s, else this
     * process's): never in a relative one, which would name a folder of the workspace (see {@link HostPrograms}).
     */
    private Optional<Path> program(String command) {
        return HostPrograms.find(command, spec.env().getOrDefault("PATH", System.getenv("PATH")));
    }

    /**
     * Waits for the server's answer to {@code initialize}, but not for the whole start-up time-out when its process
     * has already exited (a missing token, a wrong path): then it waits only for the SDK to see the end of its
     * output, by which time the stderr tail has been read too. Either way round, a process that exited is named by its
     * exit code.
     */
    private void awaitInitialized(CompletableFuture<?> initialized, Duration startTimeout)
            throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (true) {
            try {
                initialized.get(200, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                // The SDK can see the output end before the exit is seen here: a process that is ending says more
                // with its exit code than the SDK's "failed to initialize".
                Process started = processOf(tracker.inner());
                if (started != null && started.waitFor(2, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("its process exited with code " + started.exitValue());
                }
                throw e;
            } catch (TimeoutException e) {
                Process started = processOf(tracker.inner());
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

    /**
     * Calls {@code tool} and waits for its result, at most the server's timeout, or until the call is cancelled; its
     * progress notifications go to {@code output}. A cancelled or timed-out call is cancelled at the server too
     * ({@code notifications/cancelled}). A stdio server that crashed is started again first, once a session.
     */
    McpSchema.CallToolResult call(
            String tool, Map<String, Object> arguments, Cancellation cancellation, OutputSink output)
            throws InterruptedException, McpCallException {
        McpAsyncClient current = running();
        String token = "dockhand-" + tokens.incrementAndGet();
        progress.put(token, output);
        CallTracker calls = tracker;
        try {
            CompletableFuture<McpSchema.CallToolResult> future = current.callTool(
                            McpSchema.CallToolRequest.builder(tool)
                                    .arguments(arguments)
                                    .progressToken(token)
                                    .build())
                    .toFuture();
            // Dropping the SDK's subscription ends its wait for the answer; the server is told to stop too.
            try (Cancellation.Registration stop = cancellation.onCancel(() -> {
                calls.cancel(token, "The user cancelled the call.");
                future.cancel(true);
            })) {
                return await(future, tool, token);
            } catch (CancellationException e) {
                throw new McpCallException("The " + tool + " call was cancelled.");
            } catch (InterruptedException e) {
                calls.cancel(token, "The call was interrupted.");
                future.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                throw new McpCallException(stoppedOrFailed(tool, reason(e.getCause())));
            }
        } finally {
            progress.remove(token);
            calls.forget(token);
        }
    }

    /**
     * The client, after starting a crashed stdio server again when it has not been restarted yet (waiting out the
     * rest of {@link #RESTART_BACKOFF} since the crash); a server that is not running is an error naming why.
     */
    private synchronized McpAsyncClient running() throws McpCallException, InterruptedException {
        Process current = process;
        if (!crashed && failure == null && current != null && !current.isAlive()) {
            // It died between calls: restart now rather than fail this call first.
            failure = "stopped with exit code " + current.exitValue();
            crashed = true;
            crashedAt = System.currentTimeMillis();
        }
        if (crashed && !restarted && spec.transport().equals("stdio")) {
            restarted = true;
            long wait = RESTART_BACKOFF.toMillis() - (System.currentTimeMillis() - crashedAt);
            if (wait > 0) {
                Thread.sleep(wait);
            }
            String crash = failure;
            close();
            failure = null;
            crashed = false;
            start(startTimeout);
            listener.restarted(this);
            if (failure != null) {
                throw new McpCallException(
                        "The MCP server '" + spec.name() + "' " + crash + "; started again, it " + failure);
            }
            listener.toolsChanged(this);
        }
        McpAsyncClient connected = client;
        if (connected == null || failure != null) {
            throw new McpCallException("The MCP server '" + spec.name() + "' is not running: " + failure
                    + (restarted && spec.transport().equals("stdio") ? " (it was restarted once already)" : ""));
        }
        return connected;
    }

    /**
     * For a server in the sandbox, whose workspace may be a copy (a remote engine): what the host changed since the
     * last sync is copied in before the call, as before a command, so the server works on the files the model sees.
     */
    void syncIn() throws McpCallException {
        Sandbox box = sandboxOfServer();
        if (box == null) {
            return;
        }
        try {
            box.syncIn();
        } catch (IOException e) {
            throw new McpCallException("The workspace could not be copied into the sandbox for the MCP server '"
                    + spec.name() + "': " + e.getMessage());
        }
    }

    /**
     * For a server in the sandbox: what it changed in the workspace's copy is copied back after the call, as after a
     * command, rather than with the next command (or never, if the session ends first). Sentences for the model.
     */
    List<String> syncBack() {
        Sandbox box = sandboxOfServer();
        return box == null ? List.of() : box.syncBack();
    }

    /** The sandbox this server runs in; null for a server on this machine or before the sandbox opened. */
    private Sandbox sandboxOfServer() {
        if (!spec.sandbox() || sandbox == null || !sandbox.isDone() || sandbox.isCompletedExceptionally()) {
            return null;
        }
        return sandbox.getNow(null);
    }

    /** Whether this server was started again after a crash. */
    synchronized boolean wasRestarted() {
        return restarted;
    }

    /**
     * The call's result, waiting at most the server's timeout, and not at all once its process has exited: the SDK
     * does not fail a pending call when the server dies, so without this check a crash would wait out the timeout.
     */
    private McpSchema.CallToolResult await(
            CompletableFuture<McpSchema.CallToolResult> future, String tool, String token)
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
                    tracker.cancel(token, "The call took longer than its time limit.");
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
            if (!crashed) {
                crashed = true;
                crashedAt = System.currentTimeMillis();
            }
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
                // One transport for both: its reading of stdout and stderr is bounded (BoundedLines), which the SDK's
                // StdioClientTransport's is not, so a server printing one endless line cannot fill this JVM's memory.
            case "stdio" -> new ProcessStdioTransport(
                    spec.sandbox() ? startInSandbox() : startOnThisMachine(), JSON, spec.name(), this::stderrLine);
            case "sse" -> sse();
            default -> HttpClientStreamableHttpTransport.builder(spec.url())
                    .jsonMapper(JSON)
                    .requestBuilder(headers())
                    .build();
        };
    }

    /**
     * The server's process on this machine, in the folder {@link HostServerFolder} gives it (a project's in the
     * workspace, one of the user's settings never there), with this process's environment and the server's {@code
     * env} over it (as the SDK's own stdio transport started it).
     */
    private Process startOnThisMachine() {
        List<String> command = new ArrayList<>();
        command.add(
                spec.command().contains("/")
                        ? spec.command()
                        : program(spec.command())
                                .map(Path::toString)
                                .orElseThrow(() -> new IllegalStateException("did not start: there is no program "
                                        + spec.command() + " in the absolute folders of its PATH")));
        command.addAll(spec.args());
        HostServerFolder started = HostServerFolder.of(spec, workingDirectory);
        folder = started;
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(started.path().toFile());
        builder.environment().putAll(spec.env());
        try {
            return builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("it could not be started: " + e.getMessage());
        }
    }

    /**
     * The server's process, started in the session's sandbox once that is open ({@code docker exec -i} in its
     * container): {@code cwd} is resolved against the working directory, which the container sees at the same path.
     * Without a sandbox that confines it, it is not started at all, never on this machine instead.
     */
    private Process startInSandbox() {
        Sandbox opened;
        try {
            opened = sandbox == null ? null : sandbox.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("it runs in the sandbox, which did not open: " + reason(e.getCause()));
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "it runs in the sandbox, which did not open within " + startTimeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the sandbox opened");
        }
        if (opened == null) {
            throw new IllegalStateException(
                    "it is set to run in the sandbox (\"sandbox\": true) and there is no sandbox here, so it was not"
                            + " started on this machine instead");
        }
        List<String> command = new ArrayList<>();
        command.add(spec.command());
        command.addAll(spec.args());
        try {
            return opened.startAttached(
                    command,
                    spec.env(),
                    spec.cwd().map(workingDirectory::resolve).orElse(workingDirectory));
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException("it is set to run in the sandbox (\"sandbox\": true) and this session"
                    + " has no Docker sandbox (--sandbox " + opened.kind() + "), so it was not started on this machine"
                    + " instead");
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    /**
     * The older HTTP+SSE transport (protocol 2024-11-05), for servers that still speak only it: the URL is the event
     * stream's ({@code https://host/sse}); the server names the endpoint to post to in its first event. The SDK keeps
     * its client, though deprecated, for exactly these servers.
     */
    @SuppressWarnings("deprecation")
    private McpClientTransport sse() {
        java.net.URI uri = java.net.URI.create(spec.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String endpoint = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/sse" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return io.modelcontextprotocol.client.transport.HttpClientSseClientTransport.builder(base)
                .sseEndpoint(endpoint)
                .jsonMapper(JSON)
                .requestBuilder(headers())
                .build();
    }

    private HttpRequest.Builder headers() {
        HttpRequest.Builder builder = HttpRequest.newBuilder();
        spec.headers().forEach(builder::header);
        return builder;
    }

    /** Keeps a stderr line in the tail; {@link ProcessStdioTransport} cut it to its bound already. */
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
     * The server's process, for stopping its children too, which leaves no node or python a launcher such as npx or
     * uvx started running; null for an HTTP server.
     */
    private static Process processOf(McpClientTransport transport) {
        return transport instanceof ProcessStdioTransport stdio ? stdio.process() : null;
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

    /**
     * Removes the folder the server was started in when it was made for it, once the killed process has exited (a
     * few seconds at most), so the server no longer writes there.
     */
    private void removeFolder(Process killed) {
        HostServerFolder started = folder;
        folder = null;
        if (started == null) {
            return;
        }
        // Only a folder made for the server is removed, so only then is there a reason to wait.
        if (killed != null && started.madeForServer()) {
            try {
                killed.onExit().get(2, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // Removed anyway: what cannot be is left in the temporary folder.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        started.close();
    }

    /** Closes the session and kills the process tree, children first, and removes the folder made for it. */
    @Override
    public void close() {
        CallTracker calls = tracker;
        Process running = process != null ? process : calls == null ? null : processOf(calls.inner());
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
        removeFolder(running);
        ready = false;
        client = null;
        process = null;
    }
}
