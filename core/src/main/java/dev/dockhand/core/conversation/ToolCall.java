package dev.dockhand.core.conversation;

import java.util.Objects;

/**
 * One tool call as the model made it. {@code arguments} is the model's raw text, which may not even be JSON: the
 * scheduler, not the provider, decides what to do with bad arguments.
 */
public record ToolCall(String id, String name, String arguments) {
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
