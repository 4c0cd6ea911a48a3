package dev.dockhand.core.model;

import dev.dockhand.core.conversation.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one model request carries: the model name, the whole history, the tools on offer, and how hard the model
 * should reason (empty: the provider's own default).
 */
public record ModelRequest(
        String model, List<Message> messages, List<ToolDeclaration> tools, Optional<ReasoningEffort> reasoningEffort) {
    public ModelRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(reasoningEffort, "reasoningEffort");
    }

    public ModelRequest(String model, List<Message> messages, List<ToolDeclaration> tools) {
        this(model, messages, tools, Optional.empty());
    }
}
