package dev.dockhand.core.model;

import dev.dockhand.core.conversation.ToolCall;
import java.util.List;
import java.util.Optional;

/** A finished (or cancelled) model reply. {@code usage} is empty when the provider reported none. */
public record ModelReply(String text, List<ToolCall> toolCalls, FinishReason finishReason, Optional<TokenUsage> usage) {
    public ModelReply {
        toolCalls = List.copyOf(toolCalls);
    }
}
