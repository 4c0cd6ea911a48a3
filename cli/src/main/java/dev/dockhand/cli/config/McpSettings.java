package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
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

    static void apply(Settings project, Settings user, boolean trusted, OptionValues command, List<String> ignored) {
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

    /**
     * Adds the servers of {@code --mcp-config FILE} (a settings file of which only {@code mcpServers} counts) over
     * those of the settings; the user named the file, so it counts in any folder. A missing or bad file stops the run
     * (exit 52).
     */
    static void addConfigFile(String file, OptionValues command, CliEnvironment environment) {
        if (file == null) {
            return;
        }
        Path path = environment.workingDirectory().resolve(file);
        if (!Files.isRegularFile(path)) {
            throw new DockhandException(ExitCodes.CONFIGURATION, "--mcp-config: there is no file " + path + ".");
        }
        Settings read;
        try {
            read = SettingsFiles.read(path, Option.schema());
        } catch (SettingsException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage(), e);
        }
        Map<String, Settings.McpServer> servers = new LinkedHashMap<>(command.mcpServers);
        if (read.mcpServers() != null) {
            servers.putAll(read.mcpServers());
        }
        command.mcpServers = Map.copyOf(servers);
    }
}
