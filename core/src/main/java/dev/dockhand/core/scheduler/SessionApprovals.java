package dev.dockhand.core.scheduler;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Tools the user allowed "for the rest of this session"; lives as long as the session, not the turn. */
public final class SessionApprovals {
    private final Set<String> tools = ConcurrentHashMap.newKeySet();
    private final Set<String> groups = ConcurrentHashMap.newKeySet();

    public void allow(String toolName) {
        tools.add(toolName);
    }

    /** Takes back one tool's approval, as when a custom command's turn that allowed it ends. */
    public void revoke(String toolName) {
        tools.remove(toolName);
    }

    public boolean isAllowed(String toolName) {
        return tools.contains(toolName);
    }

    /** The tools allowed, sorted by name. */
    public java.util.List<String> names() {
        return tools.stream().sorted().toList();
    }

    /** Takes one tool's approval back: its next call asks again. */
    public boolean remove(String toolName) {
        return tools.remove(toolName);
    }

    /** Allows every tool of {@code group} (an MCP server's, {@code Tool.approvalGroup}) for the session. */
    public void allowGroup(String group) {
        groups.add(group);
    }

    public boolean isGroupAllowed(String group) {
        return groups.contains(group);
    }

    public void clear() {
        groups.clear();
        tools.clear();
    }
}
