package dev.dockhand.tools.mcp;

import java.util.Set;

/**
 * The names the model calls MCP tools by: {@code mcp__<server>__<tool>}, with every character outside
 * {@code [A-Za-z0-9_-]} replaced by {@code _} (the providers refuse others) and at most 64 characters (OpenAI's and
 * Anthropic's limit), made unique with a numbered tail when two would be the same.
 */
final class McpToolNames {
    static final int MAX_LENGTH = 64;

    private McpToolNames() {}

    static String name(String server, String tool, Set<String> taken) {
        String base = ("mcp__" + clean(server) + "__" + clean(tool));
        String name = cut(base, "");
        for (int n = 2; taken.contains(name); n++) {
            name = cut(base, "_" + n);
        }
        return name;
    }

    /** How the names of {@code server}'s tools begin (before any cut to the length limit). */
    static String prefix(String server) {
        String prefix = "mcp__" + clean(server) + "__";
        return prefix.length() > MAX_LENGTH ? prefix.substring(0, MAX_LENGTH) : prefix;
    }

    private static String cut(String base, String tail) {
        int room = MAX_LENGTH - tail.length();
        return (base.length() > room ? base.substring(0, room) : base) + tail;
    }

    private static String clean(String part) {
        return part.replaceAll("[^A-Za-z0-9_-]", "_");
    }
}
