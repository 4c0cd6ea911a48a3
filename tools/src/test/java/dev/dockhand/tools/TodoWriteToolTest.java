package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TodoWriteToolTest {
    @TempDir
    Path workspace;

    private final TodoWriteTool tool = new TodoWriteTool();

    // codex tool_harness.rs: "update_plan_tool_emits_plan_update_event"
    @Test
    void replacesThePlanAndShowsIt() {
        List<TodoWriteTool.Todo> todos = List.of(
                new TodoWriteTool.Todo("read the code", "completed"),
                new TodoWriteTool.Todo("fix the bug", "in_progress"),
                new TodoWriteTool.Todo("run tests", "pending"));

        ToolResult result = tool.execute(
                new TodoWriteTool.Params(todos), TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));

        assertEquals(
                ToolResult.success(
                        "Plan updated (1 of 3 done):\n[x] read the code\n[>] fix the bug\n[ ] run tests",
                        "1/3 done\n[x] read the code\n[>] fix the bug\n[ ] run tests"),
                result);
        assertEquals(todos, tool.current());
    }

    @Test
    void allowsOnlyOneStepInProgress() {
        assertEquals(
                Optional.of("only one step can be in_progress at a time; 2 are."),
                tool.validate(new TodoWriteTool.Params(List.of(
                        new TodoWriteTool.Todo("a", "in_progress"), new TodoWriteTool.Todo("b", "in_progress")))));
    }
}
