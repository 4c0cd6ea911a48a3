package dev.dockhand.core.model;

import dev.dockhand.core.conversation.Message;
import java.util.List;
import java.util.Objects;

/** Everything one model request carries: the model name, the whole history, and the tools on offer. */
public record ModelRequest(String model, List<Message> messages, List<ToolDeclaration> tools) {
    public ModelRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }
}
