package dev.dockhand.core.settings;

import java.util.List;
import java.util.Map;

/**
 * One settings file. Every key is optional; a missing one leaves the value to the layers below. The keys that mirror
 * a command-line option ({@code model}, {@code maxTurns}, {@code sandbox.pids}, ...) are declared by the caller's
 * option table, not here: {@link SettingsFiles#read} checks them against the keys it is given and returns them in
 * {@code options}, by dotted key, as the types the table declares. The components here are the blocks that are no
 * option, each merged by the feature that owns it. API keys themselves are never stored, only the name of the
 * variable that holds one ({@code apiKeyEnv}, an option). {@code trustedFolders} and {@code protectedPaths} count
 * only in the user's own file; a project's file can set them, but they are ignored.
 *
 * @param options the option keys the file sets, dotted ({@code sandbox.pids}); a key the file leaves out (or sets to
 *     null) is absent
 */
public record Settings(
        Map<String, Object> options,
        ProtectedPathsBlock protectedPaths,
        Map<String, Boolean> trustedFolders,
        Map<String, McpServer> mcpServers,
        Checkpoints checkpoints,
        Permissions permissions,
        Map<String, List<HookMatcher>> hooks,
        Integer stopHookLimit,
        Redaction redaction) {
    public static final Settings EMPTY = new Settings(Map.of(), null, null, null, null, null, null, null, null);

    public Settings {
        options = options == null ? Map.of() : Map.copyOf(options);
    }

    /** These blocks with {@code values} as the option keys. */
    Settings withOptions(Map<String, Object> values) {
        return new Settings(
                values,
                protectedPaths,
                trustedFolders,
                mcpServers,
                checkpoints,
                permissions,
                hooks,
                stopHookLimit,
                redaction);
    }

    /**
     * One MCP server, in the shape Claude Code, gemini-cli and others use: a program ({@code command}, {@code args},
     * {@code env}, {@code cwd}) spoken to over stdio, or a {@code url} (with {@code headers}) spoken to over Streamable
     * HTTP ({@code type} may say {@code stdio} or {@code http}; it follows from the other keys). {@code timeout} is one call's limit in
     * milliseconds; {@code trust} lets the server's read-only tools run without a question; {@code required} makes a
     * failed start fail the run. Only data: the MCP client (dev.dockhand.tools.mcp) reads it.
     */
    public record McpServer(
            String type,
            String command,
            List<String> args,
            Map<String, String> env,
            String cwd,
            String url,
            Map<String, String> headers,
            List<String> includeTools,
            List<String> excludeTools,
            Long timeout,
            Boolean trust,
            Boolean required,
            Boolean sandbox) {}

    /**
     * A model's price in US dollars per million tokens: uncached input, input read from the provider's cache, input
     * written to it, and output (reasoning included). A missing cache price means the input price.
     */
    public record Price(Double input, Double cachedInput, Double cacheWrite, Double output) {}

    /** Paths to protect besides the defaults ({@code add}), and protected paths the model may change ({@code allow}). */
    public record ProtectedPathsBlock(List<String> add, List<String> allow) {}

    /**
     * Workspace snapshots before mutating calls: {@code enabled} (default true) and the largest file recorded, in
     * bytes ({@code maxFileSize}, default 10 MB).
     */
    public record Checkpoints(Boolean enabled, Long maxFileSize) {}

    /**
     * Permission rules, evaluated before the approval mode: {@code tool} or {@code tool(pattern)}; deny beats ask beats
     * allow. {@code projects} holds rules for one folder each, keyed by its real path; it counts only in the user's
     * own file, where "always allow in this project" writes.
     */
    public record Permissions(
            List<String> allow, List<String> ask, List<String> deny, Map<String, ProjectPermissions> projects) {
        public Permissions(List<String> allow, List<String> ask, List<String> deny) {
            this(allow, ask, deny, null);
        }
    }

    /** The permission rules of one folder, in the user's own file. */
    public record ProjectPermissions(List<String> allow, List<String> ask, List<String> deny) {}

    /** One entry of a hook event's list, in Claude Code's shape: which tools it matches and the commands to run. */
    public record HookMatcher(String matcher, List<HookCommand> hooks) {}

    /** One hook: {@code type} is {@code command}; {@code timeout} in seconds. */
    public record HookCommand(String type, String command, Integer timeout) {}

    /**
     * Secret redaction: {@code enabled} (user settings only; default true), extra {@code patterns}, values that are
     * never redacted ({@code allowedValues}) and values that always are ({@code secretValues}).
     */
    public record Redaction(
            Boolean enabled, List<RedactionPattern> patterns, List<String> allowedValues, List<String> secretValues) {}

    /** An extra redaction rule: its {@code id} names the placeholder, {@code regex} what it finds. */
    public record RedactionPattern(String id, String regex) {}
}
