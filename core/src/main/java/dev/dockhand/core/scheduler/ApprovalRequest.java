package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolKind;

/** What the user is asked to approve: the call, its kind, and its key argument in a few words. */
public record ApprovalRequest(ToolCall call, ToolKind kind, String summary) {}
