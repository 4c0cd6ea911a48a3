package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;

/** One call of a round in its terminal state, with the result the model will read. */
public record CompletedCall(
        ToolCall call, ToolCallStatus status, ToolResult result, String summary, Duration duration) {}
