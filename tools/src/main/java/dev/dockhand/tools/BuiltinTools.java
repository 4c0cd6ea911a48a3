package dev.dockhand.tools;

import dev.dockhand.core.tool.Tool;
import java.util.List;

/**
 * The tools every session offers, in the order the model is told of them. No scanning, no reflection. A new list
 * for each session: some tools (todo_write) hold session state.
 */
public final class BuiltinTools {
    private BuiltinTools() {}

    /** The tools, with a web_fetch that reaches no internal address. */
    public static List<Tool<?>> all() {
        return all(List.of());
    }

    /**
     * The tools, with a web_fetch that may also reach the internal hosts in {@code webFetchAllowedHosts} (the user's
     * {@code webFetch.allowedHosts}): host names, IP addresses and CIDR blocks, as {@link WebFetchTool#WebFetchTool(List)}
     * reads them.
     *
     * @throws IllegalArgumentException with one sentence naming the first entry that is none of those
     */
    public static List<Tool<?>> all(List<String> webFetchAllowedHosts) {
        return List.of(
                new ReadFileTool(),
                new WriteFileTool(),
                new EditTool(),
                new ListDirectoryTool(),
                new GlobTool(),
                new GrepTool(),
                new RunShellCommandTool(),
                new KillBackgroundTool(),
                new WebFetchTool(webFetchAllowedHosts),
                new TodoWriteTool());
    }
}
