package dev.dockhand.core.scheduler;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolKind;
import java.util.Optional;

/**
 * What the user is asked to approve: the call, its kind, its key argument in a few words, and a preview of what it
 * would change (a unified diff for edits) when the tool can tell.
 */
public record ApprovalRequest(ToolCall call, ToolKind kind, String summary, Optional<String> preview) {}
