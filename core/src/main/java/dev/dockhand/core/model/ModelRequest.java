package dev.dockhand.core.model;

import dev.dockhand.core.conversation.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one model request carries: the model name, the whole history, the tools on offer, how hard the model
 * should reason (empty: the provider's own default), and the tools Dockhand knows but does not offer ({@code
 * withheld}: kept out by the user or by a sub-agent's definition). A request writer whose API wants the tools of the
 * history declared even when none is offered (Anthropic's) takes their description and schema from {@code withheld},
 * and declares them so that the model cannot call them.
 */
public record ModelRequest(
        String model,
        List<Message> messages,
        List<ToolDeclaration> tools,
        Optional<ReasoningEffort> reasoningEffort,
        List<ToolDeclaration> withheld) {
    public ModelRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(reasoningEffort, "reasoningEffort");
        withheld = List.copyOf(withheld);
    }

    public ModelRequest(
            String model,
            List<Message> messages,
            List<ToolDeclaration> tools,
            Optional<ReasoningEffort> reasoningEffort) {
        this(model, messages, tools, reasoningEffort, List.of());
    }

    public ModelRequest(String model, List<Message> messages, List<ToolDeclaration> tools) {
        this(model, messages, tools, Optional.empty());
    }
}
