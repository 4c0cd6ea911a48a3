package dev.dockhand.cli.config;

import java.util.HashMap;
import java.util.Map;

/**
 * Each option's value for one run, read by {@link Option}: first as parsed, then as {@link Configuration} layered
 * the environment and the settings files over it.
 */
public abstract class OptionValues {
    private final Map<Option<?>, Object> values = new HashMap<>();

    /** Whether the user (not an untrusted project) named web_fetch among the allowed tools. */
    public boolean fetchNamedByUser;

    /**
     * The MCP servers of the settings (a project's only in a trusted folder) and of {@code --mcp-config}, each with the
     * settings it came from.
     */
    public Map<String, RunOptions.ConfiguredMcpServer> mcpServers = Map.of();

    /** The permission rules of the settings files, each with where it was written (see PermissionSettings). */
    public java.util.List<dev.dockhand.core.scheduler.PermissionRule> permissionRules = java.util.List.of();
    /** The hooks of the settings (a project's only in a trusted folder), checked, with the Stop hooks' limit. */
    public dev.dockhand.core.hooks.HookDefinitions hooks = dev.dockhand.core.hooks.HookDefinitions.NONE;
    /** The redaction block of the settings (see {@link RedactionSettings}). */
    public RedactionSettings redaction = RedactionSettings.DEFAULT;

    /** The settings files as read by the last configuration, with what the project's file was not allowed to set. */
    public Configuration configuration;

    /** The option's value for this run. */
    @SuppressWarnings("unchecked")
    public <T> T get(Option<T> option) {
        return (T) values.get(option);
    }

    public <T> void set(Option<T> option, T value) {
        values.put(option, value);
    }

    /** Sets a value as read from the command line, before its type is known to the compiler. */
    protected void put(Option<?> option, Object value) {
        values.put(option, value);
    }

    protected void clear() {
        values.clear();
    }

    /** Configures again, with the folder's settings applied in full, as if it were trusted. */
    public abstract void configureTrustedForThisRun();
}
