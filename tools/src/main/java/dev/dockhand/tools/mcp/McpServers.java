package dev.dockhand.tools.mcp;

import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The session's MCP servers: started together in the background, each within the start-up time-out, their tools
 * offered under {@code mcp__<server>__<tool>} names as each server becomes ready and as it changes them, all stopped at
 * {@link #close}. A server that fails to start is reported ({@link #statuses}, the listener) and offers no tools;
 * whether that stops the run is the caller's choice ({@link #awaitRequired}).
 */
public final class McpServers implements AutoCloseable, ToolRegistry.LateTools {
    /** How long a server may take to start and list its tools. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final List<McpServerConnection> connections = new ArrayList<>();
    private final Map<McpServerConnection, CompletableFuture<Void>> starts = new HashMap<>();
    private final Duration startTimeout;
    private final Consumer<Status> listener;
    private final Predicate<String> offered;
    /** The model's name of each server tool, kept for the session: a name does not move when another server joins. */
    private final Map<String, String> names = new HashMap<>();

    private final Set<String> taken = new HashSet<>();
    private volatile List<Tool<?>> tools = List.of();

    private McpServers(Duration startTimeout, Consumer<Status> listener, Predicate<String> offered) {
        this.startTimeout = startTimeout;
        this.listener = listener;
        this.offered = offered;
    }

    /** Starts every server at once and waits until each has started or failed (at most {@code startTimeout}). */
    public static McpServers start(List<McpServerSpec> specs, Path workingDirectory, Duration startTimeout) {
        return start(specs, workingDirectory, startTimeout, null);
    }

    /**
     * Like {@link #start(List, Path, Duration)}, the servers with {@code "sandbox": true} started in {@code sandbox}
     * once it is open (null: there is none, and they do not start).
     */
    public static McpServers start(
            List<McpServerSpec> specs,
            Path workingDirectory,
            Duration startTimeout,
            CompletableFuture<Sandbox> sandbox) {
        McpServers servers =
                startInBackground(specs, workingDirectory, startTimeout, status -> {}, name -> true, sandbox);
        servers.awaitAll();
        return servers;
    }

    /**
     * Starts every server at once, each on a thread of its own, and returns at once. {@code listener} hears each
     * server's state as it changes (on the server's thread); {@code offered} says which tool names the user lets the
     * model see ({@code --tools}, {@code --excluded-tools}).
     */
    public static McpServers startInBackground(
            List<McpServerSpec> specs,
            Path workingDirectory,
            Duration startTimeout,
            Consumer<Status> listener,
            Predicate<String> offered) {
        return startInBackground(specs, workingDirectory, startTimeout, listener, offered, null);
    }

    /**
     * Like {@link #startInBackground(List, Path, Duration, Consumer, Predicate)}; a server with {@code "sandbox":
     * true} waits for {@code sandbox} to open (within its start-up time-out) and runs in it. Without one (null, or a
     * sandbox that confines nothing) such a server fails to start, saying why: it never runs on this machine instead.
     */
    public static McpServers startInBackground(
            List<McpServerSpec> specs,
            Path workingDirectory,
            Duration startTimeout,
            Consumer<Status> listener,
            Predicate<String> offered,
            CompletableFuture<Sandbox> sandbox) {
        McpServers servers = new McpServers(startTimeout, listener, offered);
        McpServerConnection.Listener changes = new McpServerConnection.Listener() {
            @Override
            public void toolsChanged(McpServerConnection connection) {
                servers.refresh();
                servers.listener.accept(servers.status(connection, "tools_changed"));
            }

            @Override
            public void restarted(McpServerConnection connection) {
                servers.refresh();
                servers.listener.accept(servers.status(connection, "restarted"));
            }
        };
        for (McpServerSpec spec : specs) {
            servers.connections.add(new McpServerConnection(spec, workingDirectory, changes, sandbox));
        }
        for (McpServerConnection connection : servers.connections) {
            CompletableFuture<Void> started = new CompletableFuture<>();
            servers.starts.put(connection, started);
            Thread thread = new Thread(
                    () -> {
                        try {
                            connection.start(startTimeout);
                            servers.refresh();
                            servers.listener.accept(servers.status(connection, null));
                        } finally {
                            started.complete(null);
                        }
                    },
                    "mcp-start-" + connection.spec().name());
            thread.setDaemon(true);
            thread.start();
        }
        return servers;
    }

    /** Where a server stands. */
    public enum State {
        /** Still starting: connecting, initialising or listing its tools. */
        STARTING,
        /** Started; its tools are offered. */
        CONNECTED,
        /** Failed to start, or stopped; {@link Status#failure} says why. */
        FAILED
    }

    /** One offered tool: the name the model calls it by and the server's description of it. */
    public record ToolInfo(String name, String description) {}

    /**
     * One server's state for {@code dockhand mcp list}, {@code /mcp} and the status events; {@code change} names
     * what just happened when it is not a plain start ({@code tools_changed}, {@code restarted}), else null;
     * {@code sandboxed} whether it runs in the session's sandbox.
     */
    public record Status(
            String name,
            String transport,
            State state,
            Optional<String> failure,
            List<ToolInfo> tools,
            boolean required,
            String change,
            boolean sandboxed) {}

    public List<Status> statuses() {
        List<Status> statuses = new ArrayList<>();
        for (McpServerConnection connection : connections) {
            statuses.add(status(connection, null));
        }
        return statuses;
    }

    private Status status(McpServerConnection connection, String change) {
        List<ToolInfo> offeredTools = tools.stream()
                .map(tool -> (McpTool) tool)
                .filter(tool -> tool.server() == connection)
                .map(tool -> new ToolInfo(tool.name(), tool.serverDescription()))
                .toList();
        State state = connection.failure().isPresent()
                ? State.FAILED
                : connection.connected() ? State.CONNECTED : State.STARTING;
        return new Status(
                connection.spec().name(),
                connection.spec().transport(),
                state,
                connection.failure(),
                offeredTools,
                connection.spec().required(),
                change,
                connection.spec().sandbox());
    }

    /**
     * Rebuilds the offered tools from every server's current list. A tool keeps its object while its definition is
     * unchanged (its compiled schema with it) and its name for the whole session.
     */
    private synchronized void refresh() {
        Map<String, McpTool> previous = new HashMap<>();
        for (Tool<?> tool : tools) {
            previous.put(tool.name(), (McpTool) tool);
        }
        List<Tool<?>> next = new ArrayList<>();
        for (McpServerConnection connection : connections) {
            if (connection.failure().isPresent()) {
                continue;
            }
            for (io.modelcontextprotocol.spec.McpSchema.Tool tool : connection.tools()) {
                if (!connection.spec().offers(tool.name())) {
                    continue;
                }
                String key = connection.spec().name() + "\u0000" + tool.name();
                String name = names.computeIfAbsent(key, unused -> {
                    String fresh = McpToolNames.name(connection.spec().name(), tool.name(), taken);
                    taken.add(fresh);
                    return fresh;
                });
                if (!offered.test(name)) {
                    continue;
                }
                McpTool before = previous.get(name);
                next.add(
                        before != null
                                        && before.server() == connection
                                        && before.definition().equals(tool)
                                ? before
                                : new McpTool(name, connection, tool));
            }
        }
        if (!next.equals(tools)) {
            tools = List.copyOf(next);
        }
    }

    /** The tools of the servers that have started, filtered; the same list object until they change. */
    @Override
    public List<Tool<?>> current() {
        return tools;
    }

    /** The tools of the servers that have started, filtered by each server's includeTools and excludeTools. */
    public List<Tool<?>> tools() {
        return tools;
    }

    /**
     * The tool {@code name}; when it is not there yet and a server whose tools it could be is still starting, waits
     * for that server (at most its start-up time-out) and looks again: a call the model makes to a server that is not
     * ready yet waits for it rather than failing as unknown.
     */
    @Override
    public Optional<Tool<?>> await(String name) {
        Optional<Tool<?>> found = ToolRegistry.LateTools.super.await(name);
        if (found.isPresent() || !name.startsWith("mcp__")) {
            return found;
        }
        for (McpServerConnection connection : connections) {
            String prefix = McpToolNames.prefix(connection.spec().name());
            CompletableFuture<Void> started = starts.get(connection);
            if (name.startsWith(prefix) && !started.isDone()) {
                awaitStart(started);
            }
        }
        return ToolRegistry.LateTools.super.await(name);
    }

    private void awaitStart(CompletableFuture<Void> started) {
        try {
            started.get(startTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // The start records its own failure; a start that hangs beyond its time-out is left to it.
        }
    }

    /** Waits until every server has started or failed. */
    public void awaitAll() {
        starts.values().forEach(this::awaitStart);
    }

    /**
     * Waits until every {@code required} server has started or failed, and returns the first that failed, as one
     * sentence; the others go on starting in the background.
     */
    public Optional<String> awaitRequired() {
        for (McpServerConnection connection : connections) {
            if (connection.spec().required()) {
                awaitStart(starts.get(connection));
            }
        }
        return failedRequired();
    }

    /** The first required server that failed to start, with why, as one sentence. */
    public Optional<String> failedRequired() {
        return connections.stream()
                .filter(connection ->
                        connection.spec().required() && connection.failure().isPresent())
                .findFirst()
                .map(connection -> "The required MCP server '"
                        + connection.spec().name() + "' " + connection.failure().get());
    }

    /** Stops every server, each with its process tree. */
    @Override
    public void close() {
        connections.parallelStream().forEach(McpServerConnection::close);
    }
}
