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

    /**
     * The call with its arguments as they will run, the placeholders the redactor expands put back: what the
     * permission rules are matched on, so that a rule sees the command bash gets, not the placeholder the model wrote.
     */
    ToolCall asRun(Redactor redactor) {
        if (!redactor.expandsInto(tool.name()) || !call.arguments().contains("[REDACTED:")) {
            return call;
        }
        try {
            return new ToolCall(
                    call.id(), call.name(), Json.write(redactor.expand(Json.MAPPER.readTree(call.arguments()))));
        } catch (JsonProcessingException e) {
            // They bound once already, so they parse; if not, the tool gets them as the model wrote them.
            return call;
        }
    }

    /**
     * The call as the approval question shows it: each placeholder whose value could change what the call does is
     * shown expanded ({@link Redactor#shown}); its id and name are the model's.
     */
    ToolCall asShown(Redactor redactor) {
        if (!redactor.expandsInto(tool.name()) || !call.arguments().contains("[REDACTED:")) {
            return call;
        }
        try {
            return new ToolCall(
                    call.id(), call.name(), Json.write(redactor.shown(Json.MAPPER.readTree(call.arguments()))));
        } catch (JsonProcessingException e) {
            return call;
        }
    }

    ToolResult execute(ToolContext context) throws InterruptedException {
        return tool.execute(params, context);
    }
}
