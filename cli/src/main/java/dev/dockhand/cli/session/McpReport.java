package dev.dockhand.cli.session;

import dev.dockhand.cli.config.RunOptions.ConfiguredMcpServer;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.tools.mcp.McpServerSpec;
import dev.dockhand.tools.mcp.McpServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** The MCP servers as {@code dockhand mcp list} and {@code /mcp} show them: one line each, then their tools. */
public final class McpReport {
    static final String NONE =
            "No MCP servers are configured; add one with dockhand mcp add NAME -- COMMAND ARGS… (see docs/mcp.md).";

    private McpReport() {}

    /**
     * Starts every configured server, waits until each has started or failed, and returns its line; the servers are
     * stopped again before this returns. The servers with {@code "sandbox": true} start in the sandbox that {@code
     * sandbox} opens, which is opened only for them and closed again after them; when it cannot open, they fail with
     * its reason. What closing it has to tell (a remote engine's last copy back, of what those servers wrote in the
     * workspace) goes to {@code notices}, a sentence each.
     */
    public static List<String> list(
            Map<String, ConfiguredMcpServer> configured,
            CliEnvironment environment,
            Callable<Sandbox> sandbox,
            Consumer<String> notices) {
        if (configured.isEmpty()) {
            return List.of(NONE);
        }
        List<McpServerSpec> specs = McpSetup.specs(configured, environment);
        CompletableFuture<Sandbox> opened = new CompletableFuture<>();
        if (specs.stream().anyMatch(McpServerSpec::sandbox)) {
            try {
                opened.complete(sandbox.call());
            } catch (Exception e) {
                opened.completeExceptionally(e);
            }
        }
        try (McpServers servers =
                McpServers.start(specs, environment.workingDirectory(), McpServers.START_TIMEOUT, opened)) {
            servers.awaitAll();
            return lines(servers.statuses(), false);
        } finally {
            // After the servers: those in it are stopped first, then the container goes.
            opened.thenAccept(box -> box.closeAndReport().forEach(notices));
        }
    }

    /**
     * Each server as {@code name  transport  state}, the names padded to one width, the transport followed by
     * {@code (sandbox)} for a server that runs in the session's sandbox; a failure's further lines (its
     * stderr tail) indented under it; with {@code withTools}, each offered tool and the first line of its
     * description.
     */
    static List<String> lines(List<McpServers.Status> statuses, boolean withTools) {
        int width = statuses.stream()
                .mapToInt(status -> status.name().length())
                .max()
                .orElse(0);
        int transportWidth = statuses.stream()
                .mapToInt(status -> transport(status).length())
                .max()
                .orElse(0);
        List<String> lines = new ArrayList<>();
        for (McpServers.Status status : statuses) {
            String head = pad(status.name(), width) + "  " + pad(transport(status), Math.max(5, transportWidth)) + "  ";
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

    /** The transport, and for a server that runs in the session's sandbox, that it does. */
    private static String transport(McpServers.Status status) {
        return status.sandboxed() ? status.transport() + " (sandbox)" : status.transport();
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }
}
