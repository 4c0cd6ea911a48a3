package dev.dockhand.core.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.redaction.Redactor;
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

    /**
     * This call with the values of the redactor's placeholders put back into its arguments, for the tools the
     * redactor {@linkplain Redactor#expandsInto expands into}; the call itself (as the conversation and the events
     * show it) keeps the placeholders.
     */
    PreparedCall<P> expanded(Redactor redactor) {
        if (!redactor.expandsInto(tool.name()) || !call.arguments().contains("[REDACTED:")) {
            return this;
        }
        try {
            P bound =
                    Json.MAPPER.treeToValue(redactor.expand(Json.MAPPER.readTree(call.arguments())), tool.paramsType());
            return new PreparedCall<>(call, tool, bound, summary);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // The arguments bound once already; if they no longer do, the call runs as the model wrote it.
            return this;
        }
    }

    ToolResult execute(ToolContext context) throws InterruptedException {
        return tool.execute(params, context);
    }
}
