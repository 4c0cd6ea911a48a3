package dev.dockhand.core.conversation;

import java.util.Objects;

/**
 * One tool call as the model made it. {@code arguments} is the model's raw text, which may not even be JSON: the
 * scheduler, not the provider, decides what to do with bad arguments.
 */
public record ToolCall(String id, String name, String arguments) {

    /** A new unique id, for calls whose provider sent none (or one already taken). */
    public static String freshId() {
        return "call_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
