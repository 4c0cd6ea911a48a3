package dev.dockhand.cli.session;

import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.tools.mcp.McpServerSpec;
import dev.dockhand.tools.mcp.McpServers;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a session's MCP servers and adds their tools to the built-in ones. Each method returns at once when no
 * server is configured, before any MCP class is touched, so a run without servers pays nothing for them.
 */
final class McpSetup {
    private McpSetup() {}

    /**
     * Starts the configured servers together and waits until each has started or failed; a failed server is one line
     * on {@code err}, or, when it is {@code required}, stops the run (exit 52). Returns the servers, or null.
     */
    static AutoCloseable start(RunOptions options, CliEnvironment environment, PrintWriter err) {
        if (options.mcpServers().isEmpty()) {
            return null;
        }
        List<McpServerSpec> specs = specs(options.mcpServers(), environment);
        McpServers servers = McpServers.start(specs, environment.workingDirectory(), McpServers.START_TIMEOUT);
        if (servers.failedRequired().isPresent()) {
            servers.close();
            throw new DockhandException(
                    ExitCodes.CONFIGURATION, servers.failedRequired().get());
        }
        for (McpServers.Status status : servers.statuses()) {
            status.failure()
                    .ifPresent(failure -> err.println("dockhand: the MCP server '" + status.name() + "' " + failure));
        }
        err.flush();
        return servers;
    }

    /** The configured servers in name order, each checked and its {@code ${VAR}}s expanded; a bad one is exit 52. */
    static List<McpServerSpec> specs(Map<String, Settings.McpServer> configured, CliEnvironment environment) {
        List<McpServerSpec> specs = new ArrayList<>();
        for (Map.Entry<String, Settings.McpServer> entry : configured.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .toList()) {
            try {
                specs.add(McpServerSpec.of(entry.getKey(), entry.getValue(), name -> environment
                        .get(name)
                        .orElse(null)));
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
        return McpReport.lines(((McpServers) mcp).statuses(), true);
    }

    /** The built-in tools, then the servers' tools. */
    static List<Tool<?>> withTools(List<Tool<?>> builtIn, AutoCloseable mcp) {
        if (mcp == null) {
            return builtIn;
        }
        List<Tool<?>> all = new ArrayList<>(builtIn);
        all.addAll(((McpServers) mcp).tools());
        return all;
    }

    /** Stops the servers, each with its process tree. */
    static void stop(AutoCloseable mcp) {
        if (mcp != null) {
            ((McpServers) mcp).close();
        }
    }
}
