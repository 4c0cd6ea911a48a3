package dev.dockhand.tools.mcp;

import dev.dockhand.core.settings.Settings;
import java.util.List;
import java.util.Map;

/**
 * One entry of a settings file's {@code mcpServers}, for tests: only the fields a test names are set, the rest are
 * absent (null), as when the file leaves them out.
 */
final class McpServerEntry {
    private String command;
    private List<String> args;
    private Map<String, String> env;
    private String cwd;
    private String url;
    private Map<String, String> headers;
    private List<String> excludeTools;
    private Long timeout;
    private Boolean trust;
    private Boolean required;
    private Boolean sandbox;
    private McpServerSpec.Origin origin = McpServerSpec.Origin.USER;

    private McpServerEntry() {}

    /** An entry with neither a command nor a url. */
    static McpServerEntry empty() {
        return new McpServerEntry();
    }

    /** A server Dockhand starts: {@code command} with {@code args}. */
    static McpServerEntry command(String command, List<String> args) {
        McpServerEntry entry = new McpServerEntry();
        entry.command = command;
        entry.args = args;
        return entry;
    }

    /** {@link TestMcpServer} run with {@code args}. */
    static McpServerEntry testServer(String... args) {
        List<String> line = TestMcpServer.commandLine(args);
        return command(line.get(0), line.subList(1, line.size()));
    }

    /** A server reached at {@code url}. */
    static McpServerEntry url(String url) {
        McpServerEntry entry = new McpServerEntry();
        entry.url = url;
        return entry;
    }

    McpServerEntry env(Map<String, String> env) {
        this.env = env;
        return this;
    }

    McpServerEntry cwd(String cwd) {
        this.cwd = cwd;
        return this;
    }

    McpServerEntry headers(Map<String, String> headers) {
        this.headers = headers;
        return this;
    }

    McpServerEntry excludeTools(List<String> excludeTools) {
        this.excludeTools = excludeTools;
        return this;
    }

    McpServerEntry timeout(Long timeout) {
        this.timeout = timeout;
        return this;
    }

    McpServerEntry trust(Boolean trust) {
        this.trust = trust;
        return this;
    }

    McpServerEntry required(Boolean required) {
        this.required = required;
        return this;
    }

    McpServerEntry sandbox(Boolean sandbox) {
        this.sandbox = sandbox;
        return this;
    }

    /** Where the entry is written: the user's settings unless a test says otherwise. */
    McpServerEntry origin(McpServerSpec.Origin origin) {
        this.origin = origin;
        return this;
    }

    Settings.McpServer settings() {
        return new Settings.McpServer(
                null, command, args, env, cwd, url, headers, null, excludeTools, timeout, trust, required, sandbox);
    }

    /** The spec of this entry named {@code name}, its variables expanded from this process's environment. */
    McpServerSpec spec(String name) {
        return McpServerSpec.of(name, settings(), origin, System::getenv);
    }
}
