package dev.dockhand.cli.session;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.tools.mcp.McpServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The MCP servers as {@code dockhand mcp list} and {@code /mcp} show them: one line each, then their tools. */
public final class McpReport {
    static final String NONE =
            "No MCP servers are configured; add one with dockhand mcp add NAME -- COMMAND ARGS… (see docs/mcp.md).";

    private McpReport() {}

    /**
     * Starts every configured server, waits until each has started or failed, and returns its line; the servers are
     * stopped again before this returns.
     */
    public static List<String> list(Map<String, Settings.McpServer> configured, CliEnvironment environment) {
        if (configured.isEmpty()) {
            return List.of(NONE);
        }
        try (McpServers servers = McpServers.start(
                McpSetup.specs(configured, environment), environment.workingDirectory(), McpServers.START_TIMEOUT)) {
            servers.awaitAll();
            return lines(servers.statuses(), false);
        }
    }

    /**
     * Each server as {@code name  transport  state}, the names padded to one width; a failure's further lines (its
     * stderr tail) indented under it; with {@code withTools}, each offered tool and the first line of its
     * description.
     */
    static List<String> lines(List<McpServers.Status> statuses, boolean withTools) {
        int width = statuses.stream()
                .mapToInt(status -> status.name().length())
                .max()
                .orElse(0);
        List<String> lines = new ArrayList<>();
        for (McpServers.Status status : statuses) {
            String head = pad(status.name(), width) + "  " + pad(status.transport(), 5) + "  ";
            String state =
                    switch (status.state()) {
                        case STARTING -> "starting";
                        case CONNECTED -> "connected, " + status.tools().size()
                                + (status.tools().size() == 1 ? " tool" : " tools");
                        case FAILED -> "failed: " + status.failure().orElse("");
                    };
            List<String> stateLines = state.lines().toList();
            lines.add(head + stateLines.get(0));
            for (String more : stateLines.subList(1, stateLines.size())) {
                lines.add(" ".repeat(head.length() + 2) + more);
            }
            if (withTools) {
                int toolWidth = status.tools().stream()
                        .mapToInt(tool -> tool.name().length())
                        .max()
                        .orElse(0);
                for (McpServers.ToolInfo tool : status.tools()) {
                    String description =
                            tool.description().strip().lines().findFirst().orElse("");
                    lines.add(("  " + pad(tool.name(), toolWidth) + "  " + description).stripTrailing());
                }
            }
        }
        return lines;
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }
}
