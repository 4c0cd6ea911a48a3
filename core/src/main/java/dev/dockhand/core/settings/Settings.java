package dev.dockhand.core.settings;

import java.util.List;
import java.util.Map;

/**
 * One settings file. Every key is optional; a missing one leaves the value to the layers below. Keys are the
 * command-line options in camelCase; API keys themselves are never stored, only the name of the variable that
 * holds one ({@code apiKeyEnv}). {@code trustedFolders} and {@code protectedPaths} count only in the user's own
 * file; a project's file can set them, but they are ignored. {@code pricing} overrides Dockhand's price table by
 * model name; {@code maxCost} and {@code reasoningEffort} mirror {@code --max-cost} and {@code --reasoning-effort}.
 */
public record Settings(
        String provider,
        String model,
        String baseUrl,
        String apiKeyEnv,
        String approvalMode,
        Integer maxTurns,
        Sandbox sandbox,
        Tools tools,
        Truncation truncation,
        Compression compression,
        WebFetch webFetch,
        ProtectedPathsBlock protectedPaths,
        Map<String, Boolean> trustedFolders,
        Map<String, Price> pricing,
        Double maxCost,
        String reasoningEffort,
        Map<String, McpServer> mcpServers,
        Checkpoints checkpoints,
        Permissions permissions,
        Map<String, List<HookMatcher>> hooks,
        Integer stopHookLimit,
        Redaction redaction) {
    public static final Settings EMPTY = new Settings(
            null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null);

    /** Settings without MCP servers, as before {@code mcpServers} existed. */
    public Settings(
            String provider,
            String model,
            String baseUrl,
            String apiKeyEnv,
            String approvalMode,
            Integer maxTurns,
            Sandbox sandbox,
            Tools tools,
            Truncation truncation,
            Compression compression,
            WebFetch webFetch,
            ProtectedPathsBlock protectedPaths,
            Map<String, Boolean> trustedFolders,
            Map<String, Price> pricing,
            Double maxCost,
            String reasoningEffort) {
        this(
                provider,
                model,
                baseUrl,
                apiKeyEnv,
                approvalMode,
                maxTurns,
                sandbox,
                tools,
                truncation,
                compression,
                webFetch,
                protectedPaths,
                trustedFolders,
                pricing,
                maxCost,
                reasoningEffort,
                null,
                null,
                null,
                null,
                null,
                null);
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

    /** The sandbox block. */
    public record Sandbox(
            String kind, String image, String network, String memory, Double cpus, Long pids, List<String> env) {}

    /**
     * Which tools run without a question ({@code allowed}, as {@code --allowed-tools}), which are offered at all
     * ({@code core}, as {@code --tools}; gemini-cli's name for the key), and which are left out ({@code excluded}).
     */
    public record Tools(List<String> allowed, List<String> excluded, List<String> core) {
        public Tools(List<String> allowed, List<String> excluded) {
            this(allowed, excluded, null);
        }
    }

    /** The budget of one tool result for the model. */
    public record Truncation(Integer maxChars, Integer maxLines) {}

    /**
     * When the conversation is compressed: at {@code threshold} (a fraction) of the model's context window, which is
     * {@code contextWindow} tokens when given, else taken from Dockhand's table of common models.
     */
    public record Compression(Double threshold, Long contextWindow) {}

    /** What web_fetch may reach that it refuses by default: host names, addresses and CIDR blocks. */
    public record WebFetch(List<String> allowedHosts) {}

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
