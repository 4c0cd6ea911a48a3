package dev.dockhand.cli.config;

import dev.dockhand.cli.config.RunOptions.ConfiguredMcpServer;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.settings.Settings;
import dev.dockhand.core.settings.SettingsException;
import dev.dockhand.core.settings.SettingsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code mcpServers} of the settings files: the user's, and the project's in a trusted folder only, since a
 * project's server is a program that would run on this machine. The project's entry wins over the user's of the same
 * name, as other keys do. Each entry keeps which file it came from, which decides the folder its server starts in.
 * Holds no class of the MCP client: it loads only when a server is configured.
 */
final class McpSettings {
    /** A {@code ${VAR}} that the server's values take from the environment when it starts. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*}");

    private McpSettings() {}

    static void apply(Settings project, Settings user, boolean trusted, OptionValues command, List<String> ignored) {
        Map<String, ConfiguredMcpServer> servers = new LinkedHashMap<>();
        put(servers, user.mcpServers(), ConfiguredMcpServer.Source.USER);
        if (project.mcpServers() != null && !project.mcpServers().isEmpty()) {
            if (trusted) {
                put(servers, project.mcpServers(), ConfiguredMcpServer.Source.PROJECT);
            } else {
                ignored.add("mcpServers");
            }
        }
        command.mcpServers = Map.copyOf(servers);
    }

    /** Puts each of {@code entries} (null: none) into {@code servers}, over one of the same name, from {@code source}. */
    private static void put(
            Map<String, ConfiguredMcpServer> servers,
            Map<String, Settings.McpServer> entries,
            ConfiguredMcpServer.Source source) {
        if (entries != null) {
            entries.forEach((name, entry) -> servers.put(name, new ConfiguredMcpServer(entry, source)));
        }
    }

    /**
     * Each server as {@code dockhand config} and the trust question list it: {@code mcpServers.NAME} and the command
     * with its arguments, or the URL, then the names of the variables and headers it gets, with the variables of the
     * environment their values take ({@code TOKEN from ${GITHUB_TOKEN}}). The user's own values are not shown, since
     * they may be tokens; a project's are ({@code values}), since they are the repository's text and what a yes would
     * run ({@code NODE_OPTIONS=--require ./x.js}), with its folder, whether its tools would run without a question, and
     * whether it runs in the sandbox.
     */
    static List<Map.Entry<String, String>> described(Map<String, Settings.McpServer> servers, boolean values) {
        List<Map.Entry<String, String>> lines = new ArrayList<>();
        if (servers == null) {
            return lines;
        }
        servers.forEach((name, server) -> {
            if (server == null) {
                return;
            }
            StringBuilder line = new StringBuilder();
            if (server.command() != null && !server.command().isBlank()) {
                line.append(quoted(server.command()));
                for (String arg : server.args() == null ? List.<String>of() : server.args()) {
                    line.append(' ').append(quoted(arg));
                }
            } else {
                line.append(server.url());
            }
            // The flags before the values, which a repository can make long: the question cuts a line at its end.
            if (values && Boolean.TRUE.equals(server.trust())) {
                line.append(" (its tools run without a question)");
            }
            if (values && Boolean.TRUE.equals(server.sandbox())) {
                line.append(" (in the sandbox)");
            }
            if (values && server.cwd() != null) {
                line.append(" (in ").append(quoted(server.cwd())).append(')');
            }
            names(line, "env", server.env(), values);
            names(line, "headers", server.headers(), values);
            lines.add(Map.entry("mcpServers." + name, line.toString()));
        });
        return lines;
    }

    private static void names(StringBuilder line, String what, Map<String, String> values, boolean shown) {
        if (values == null || values.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        values.forEach((name, value) -> {
            if (shown) {
                names.add(name + "=" + quoted(String.valueOf(value)));
                return;
            }
            List<String> variables = new ArrayList<>();
            Matcher matcher = VARIABLE.matcher(String.valueOf(value));
            while (matcher.find()) {
                variables.add(matcher.group());
            }
            names.add(variables.isEmpty() ? name : name + " from " + String.join(" ", variables));
        });
        line.append(" (")
                .append(what)
                .append(' ')
                .append(String.join(", ", names))
                .append(')');
    }

    /** An argument as a shell would need it to stay one word. */
    private static String quoted(String word) {
        if (!word.isEmpty() && word.chars().noneMatch(c -> Character.isWhitespace(c) || c == '\'' || c == '"')) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
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
        Map<String, ConfiguredMcpServer> servers = new LinkedHashMap<>(command.mcpServers);
        // The user named the file, but not where it is used: its servers start outside the workspace, as theirs do.
        put(servers, read.mcpServers(), ConfiguredMcpServer.Source.USER);
        command.mcpServers = Map.copyOf(servers);
    }
}
