package dev.dockhand.core.model;

import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A finished (or cancelled) model reply. {@code usage} is empty when the provider reported none; {@code reasoning} is
 * the reasoning text the provider streamed ({@code ""} when none) and {@code state} what it needs back verbatim.
 */
public record ModelReply(
        String text,
        List<ToolCall> toolCalls,
        FinishReason finishReason,
        Optional<TokenUsage> usage,
        String reasoning,
        ProviderState state) {
    public ModelReply {
        toolCalls = List.copyOf(toolCalls);
        Objects.requireNonNull(reasoning, "reasoning");
        Objects.requireNonNull(state, "state");
    }

    public ModelReply(String text, List<ToolCall> toolCalls, FinishReason finishReason, Optional<TokenUsage> usage) {
        this(text, toolCalls, finishReason, usage, "", ProviderState.NONE);
    }
}
