package dev.dockhand.tools;

import dev.dockhand.core.tool.Tool;
import java.util.List;

/**
 * The tools every session offers, in the order the model is told of them. No scanning, no reflection. A new list
 * for each session: some tools (todo_write) hold session state.
 */
public final class BuiltinTools {
    private BuiltinTools() {}

    public static List<Tool<?>> all() {
        return List.of(
                new ReadFileTool(),
                new WriteFileTool(),
                new EditTool(),
                new ListDirectoryTool(),
                new GlobTool(),
                new GrepTool(),
                new RunShellCommandTool(),
                new KillBackgroundTool(),
                new WebFetchTool(),
                new TodoWriteTool());
    }
}
