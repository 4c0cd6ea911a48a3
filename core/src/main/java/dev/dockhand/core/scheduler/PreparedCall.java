package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.util.List;
import java.util.Optional;

/** A call whose arguments passed validation and are bound to the tool's parameter record. */
record PreparedCall<P>(ToolCall call, Tool<P> tool, P params, String summary) {

    ToolKind kind() {
        return tool.kind();
    }

    Optional<String> preview(Workspace workspace) {
        return tool.preview(params, workspace);
    }

    List<String> writes() {
        return tool.writes(params);
    }

    ToolResult execute(ToolContext context) throws InterruptedException {
        return tool.execute(params, context);
    }
}
