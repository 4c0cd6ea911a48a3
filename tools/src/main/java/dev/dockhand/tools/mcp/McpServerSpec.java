package dev.dockhand.tools.mcp;

import dev.dockhand.core.settings.Settings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One MCP server as configured, with every {@code ${VAR}} in its values replaced from the environment.
 *
 * @param transport {@code stdio}, {@code http} (Streamable HTTP) or {@code sse} (the older HTTP+SSE)
 * @param timeout one call's limit
 * @param trust whether the server's read-only tools may run without a question
 * @param required whether a failed start fails the run
 * @param sandbox whether the server (stdio only) runs inside the session's Docker sandbox rather than on this machine
 * @param origin which settings the entry comes from, which decides where a server on this machine starts
 */
public record McpServerSpec(
        String name,
        String transport,
        String command,
        List<String> args,
        Map<String, String> env,
        Optional<String> cwd,
        String url,
        Map<String, String> headers,
        List<String> includeTools,
        List<String> excludeTools,
        Duration timeout,
        boolean trust,
        boolean required,
        boolean sandbox,
        Origin origin) {

    /** Other agents' default call limit: long enough for a build or a browser session. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    /**
     * Where an entry was written. A server on this machine runs with the user's rights, so the folder it starts in
     * matters: a launcher ({@code npx}, {@code python -m}, {@code uvx}) loads code from its current folder, and a
     * cloned repository decides what that folder holds. (A server in the sandbox starts in the workspace either way.)
     */
    public enum Origin {
        /**
         * The user's own settings, or a file the user named ({@code --mcp-config}): the server starts in every folder,
         * trusted or not, so never in the workspace. Without {@code cwd} it starts in a private empty folder of its
         * own (0700, removed when it stops); a relative {@code cwd} is refused, since nothing says what it is relative
         * to.
         */
        USER,
        /**
         * A trusted project's settings: the project's own program, started in the workspace, a relative {@code cwd}
         * resolved against it.
         */
        PROJECT
    }

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    /**
     * The server {@code name} of a settings file ({@code origin} says which), its values expanded with {@code
     * environment}; an unknown variable becomes empty, as in a shell. Throws {@link IllegalArgumentException} with one sentence when the entry is
     * neither a command nor a URL.
     */
    public static McpServerSpec of(
            String name, Settings.McpServer server, Origin origin, Function<String, String> environment) {
        Function<String, String> expand = value -> expand(value, environment);
        boolean hasCommand = server.command() != null && !server.command().isBlank();
        boolean hasUrl = server.url() != null && !server.url().isBlank();
        if (hasCommand == hasUrl) {
            throw new IllegalArgumentException("the MCP server '" + name + "' needs either a command or a url");
        }
        String type = server.type() == null ? (hasCommand ? "stdio" : "http") : server.type();
        if (type.equals("streamable-http") || type.equals("streamableHttp")) {
            type = "http";
        }
        if (!List.of("stdio", "http", "sse").contains(type) || type.equals("stdio") != hasCommand) {
            throw new IllegalArgumentException("the MCP server '" + name + "' has type '" + server.type()
                    + "'; a command is spoken to over stdio, a url over Streamable HTTP (type http) or the older"
                    + " HTTP+SSE (type sse)");
        }
        if (Boolean.TRUE.equals(server.sandbox()) && !type.equals("stdio")) {
            throw new IllegalArgumentException("the MCP server '" + name + "' has \"sandbox\": true, which is for a"
                    + " server Dockhand starts (a command), not one reached at a url");
        }
        if (server.timeout() != null && server.timeout() <= 0) {
            throw new IllegalArgumentException("the MCP server '" + name + "' needs a timeout above 0 milliseconds");
        }
        return new McpServerSpec(
                name,
                type,
                hasCommand ? expand.apply(server.command()) : "",
                server.args() == null
                        ? List.of()
                        : server.args().stream().map(expand).toList(),
                expandValues(server.env(), expand),
                Optional.ofNullable(server.cwd()).map(expand),
                hasUrl ? expand.apply(server.url()) : "",
                expandValues(server.headers(), expand),
                server.includeTools() == null ? List.of() : List.copyOf(server.includeTools()),
                server.excludeTools() == null ? List.of() : List.copyOf(server.excludeTools()),
                server.timeout() == null ? DEFAULT_TIMEOUT : Duration.ofMillis(server.timeout()),
                Boolean.TRUE.equals(server.trust()),
                Boolean.TRUE.equals(server.required()),
                Boolean.TRUE.equals(server.sandbox()),
                origin);
    }

    /** Whether the server's tool {@code tool} is offered, after includeTools and excludeTools. */
    public boolean offers(String tool) {
        return (includeTools.isEmpty() || includeTools.contains(tool)) && !excludeTools.contains(tool);
    }

    static String expand(String value, Function<String, String> environment) {
        Matcher matcher = VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String found = environment.apply(matcher.group(1));
            matcher.appendReplacement(out, Matcher.quoteReplacement(found == null ? "" : found));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static Map<String, String> expandValues(Map<String, String> values, Function<String, String> expand) {
        Map<String, String> out = new LinkedHashMap<>();
        if (values != null) {
            values.forEach((key, value) -> out.put(key, expand.apply(value == null ? "" : value)));
        }
        return out;
    }
}
