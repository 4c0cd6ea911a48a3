package dev.dockhand.tools.mcp;

import dev.dockhand.core.tool.Tool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The session's MCP servers: started together, each within the start-up time-out, their tools offered under
 * {@code mcp__<server>__<tool>} names, all stopped at {@link #close}. A server that fails to start is reported
 * ({@link #statuses}) and offers no tools; whether that stops the run is the caller's choice ({@link #failedRequired}).
 */
public final class McpServers implements AutoCloseable {
    /** How long a server may take to start and list its tools. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final List<McpServerConnection> connections;
    private final List<Tool<?>> tools;

    private McpServers(List<McpServerConnection> connections) {
        this.connections = connections;
        Set<String> taken = new HashSet<>();
        List<Tool<?>> offered = new ArrayList<>();
        for (McpServerConnection connection : connections) {
            connection.tools().stream()
                    .filter(tool -> connection.spec().offers(tool.name()))
                    .forEach(tool -> {
                        String name = McpToolNames.name(connection.spec().name(), tool.name(), taken);
                        taken.add(name);
                        offered.add(new McpTool(name, connection, tool));
                    });
        }
        this.tools = List.copyOf(offered);
    }

    /** Starts every server at once and waits until each has started or failed (at most {@code startTimeout}). */
    public static McpServers start(List<McpServerSpec> specs, Path workingDirectory, Duration startTimeout) {
        List<McpServerConnection> connections = new ArrayList<>();
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        for (McpServerSpec spec : specs) {
            McpServerConnection connection = new McpServerConnection(spec, workingDirectory);
            connections.add(connection);
            starts.add(CompletableFuture.runAsync(() -> connection.start(startTimeout)));
        }
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        return new McpServers(connections);
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

    /** One server's state for {@code dockhand mcp list} and {@code /mcp}. */
    public record Status(String name, String transport, State state, Optional<String> failure, List<ToolInfo> tools) {}

    public List<Status> statuses() {
        List<Status> statuses = new ArrayList<>();
        for (McpServerConnection connection : connections) {
            statuses.add(status(connection));
        }
        return statuses;
    }

    private Status status(McpServerConnection connection) {
        List<ToolInfo> offered = tools.stream()
                .map(tool -> (McpTool) tool)
                .filter(tool -> tool.server() == connection)
                .map(tool -> new ToolInfo(tool.name(), tool.serverDescription()))
                .toList();
        State state = connection.failure().isPresent() ? State.FAILED : State.CONNECTED;
        return new Status(
                connection.spec().name(), connection.spec().transport(), state, connection.failure(), offered);
    }

    /** The tools of the servers that started, filtered by each server's includeTools and excludeTools. */
    public List<Tool<?>> tools() {
        return tools;
    }

    /** Waits until every server has started or failed. */
    public void awaitAll() {}

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
