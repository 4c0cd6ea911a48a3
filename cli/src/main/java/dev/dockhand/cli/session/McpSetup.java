package dev.dockhand.cli.session;

import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.config.RunOptions.ConfiguredMcpServer;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.tools.mcp.McpServerSpec;
import dev.dockhand.tools.mcp.McpServers;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Starts a session's MCP servers in the background and offers their tools as each server becomes ready. Each method
 * returns at once when no server is configured, before any MCP class is touched, so a run without servers pays
 * nothing for them.
 */
final class McpSetup {
    private McpSetup() {}

    /**
     * Starts the configured servers together, in the background, and returns at once; those that run in the sandbox
     * ({@code "sandbox": true}) wait for {@link #sandboxOpened}, which also waits for the {@code required} ones. A
     * server that fails is one line on {@code err}; every change of a server's state is also an {@link
     * AgentEvent.McpServerStatus} to the session's events once they are attached ({@link #attach}). Returns the
     * servers, or null.
     */
    static AutoCloseable start(RunOptions options, CliEnvironment environment, PrintWriter err) {
        if (options.mcpServers().isEmpty()) {
            return null;
        }
        List<McpServerSpec> specs = specs(options.mcpServers(), environment);
        Running running = new Running(err);
        running.servers = McpServers.startInBackground(
                specs,
                environment.workingDirectory(),
                McpServers.START_TIMEOUT,
                running::accept,
                name -> options.headless().offersLate(name),
                running.sandbox);
        return running;
    }

    /**
     * Gives the servers that run in the sandbox the session's, now open, and waits for the {@code required} servers:
     * one that fails stops the run (exit 52), the servers stopped. A server can wait here for a sandbox only because
     * this comes after the sandbox opened.
     */
    static void sandboxOpened(AutoCloseable mcp, Sandbox sandbox) {
        if (mcp == null) {
            return;
        }
        Running running = (Running) mcp;
        running.sandbox.complete(sandbox);
        running.servers.awaitRequired().ifPresent(failure -> {
            running.close();
            throw new DockhandException(ExitCodes.CONFIGURATION, failure);
        });
    }

    /**
     * Sends each server's changes as events from now on, those that came before first. A failure has already been
     * said on stderr.
     */
    static void attach(AutoCloseable mcp, AgentEventSink events) {
        if (mcp != null) {
            ((Running) mcp).attach(events);
        }
    }

    /** The servers, and their status changes held until the session's events can take them. */
    private static final class Running implements AutoCloseable {
        private final PrintWriter err;
        private final List<AgentEvent> held = new ArrayList<>();
        /** The session's sandbox, for the servers that run in it; completed once it has opened. */
        private final CompletableFuture<Sandbox> sandbox = new CompletableFuture<>();

        private AgentEventSink events;
        private McpServers servers;

        Running(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void close() {
            // A server still waiting for a sandbox that will not open now stops waiting.
            sandbox.completeExceptionally(new IllegalStateException("the session ended before it opened"));
            servers.close();
        }

        void accept(McpServers.Status status) {
            if (status.state() == McpServers.State.FAILED && !status.required()) {
                synchronized (err) {
                    err.println("dockhand: the MCP server '" + status.name() + "' "
                            + status.failure().orElse("failed"));
                    err.flush();
                }
            }
            String state = status.change() != null
                    ? (status.state() == McpServers.State.FAILED ? "failed" : status.change())
                    : status.state() == McpServers.State.FAILED ? "failed" : "connected";
            AgentEvent event = new AgentEvent.McpServerStatus(
                    status.name(),
                    state,
                    status.tools().size(),
                    status.failure().orElse(null));
            AgentEventSink sink;
            synchronized (this) {
                if (events == null) {
                    held.add(event);
                    return;
                }
                sink = events;
            }
            sink.accept(event);
        }

        synchronized void attach(AgentEventSink sink) {
            held.forEach(sink::accept);
            held.clear();
            events = sink;
        }
    }

    /** The configured servers in name order, each checked and its {@code ${VAR}}s expanded; a bad one is exit 52. */
    static List<McpServerSpec> specs(Map<String, ConfiguredMcpServer> configured, CliEnvironment environment) {
        List<McpServerSpec> specs = new ArrayList<>();
        for (Map.Entry<String, ConfiguredMcpServer> entry : configured.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .toList()) {
            try {
                specs.add(McpServerSpec.of(
                        entry.getKey(),
                        entry.getValue().settings(),
                        switch (entry.getValue().source()) {
                            case USER -> McpServerSpec.Origin.USER;
                            case PROJECT -> McpServerSpec.Origin.PROJECT;
                        },
                        name -> environment.get(name).orElse(null)));
            } catch (IllegalArgumentException e) {
                throw new DockhandException(ExitCodes.CONFIGURATION, "mcpServers: " + e.getMessage() + ".");
            }
        }
        return specs;
    }

    /** What {@code /mcp} shows: each server, its state, and its tools with their descriptions. */
    static List<String> report(AutoCloseable mcp) {
        if (mcp == null) {
            return List.of(McpReport.NONE);
        }
        return McpReport.lines(((Running) mcp).servers.statuses(), true);
    }

    /** Offers the servers' tools in {@code registry} as they come and change. */
    static void offer(ToolRegistry registry, AutoCloseable mcp) {
        if (mcp != null) {
            registry.setLateTools(((Running) mcp).servers);
        }
    }

    /** Stops the servers, each with its process tree. */
    static void stop(AutoCloseable mcp) {
        if (mcp != null) {
            ((Running) mcp).close();
        }
    }
}
