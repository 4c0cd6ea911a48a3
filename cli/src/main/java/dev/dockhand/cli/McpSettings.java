package dev.dockhand.cli;

import dev.dockhand.core.settings.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code mcpServers} of the settings files: the user's, and the project's in a trusted folder only, since a
 * project's server is a program that would run on this machine. The project's entry wins over the user's of the same
 * name, as other keys do. Holds no MCP class: the client loads only when a server is configured.
 */
final class McpSettings {
    private McpSettings() {}

    static void apply(Settings project, Settings user, boolean trusted, DockhandCommand command, List<String> ignored) {
        Map<String, Settings.McpServer> servers = new LinkedHashMap<>();
        if (user.mcpServers() != null) {
            servers.putAll(user.mcpServers());
        }
        if (project.mcpServers() != null && !project.mcpServers().isEmpty()) {
            if (trusted) {
                servers.putAll(project.mcpServers());
            } else {
                ignored.add("mcpServers");
            }
        }
        command.mcpServers = Map.copyOf(servers);
    }
}
