package dev.dockhand.core.model;

import dev.dockhand.core.conversation.ToolCall;
import java.util.List;

/**
 * What the stream readers make of a tool call's name and id when the provider left them out: the call is kept, so
 * the model hears back about it, under names every provider accepts when the call is replayed in the history.
 */
public final class StreamedCalls {
    private StreamedCalls() {}

    /** The streamed name, or {@link ToolCall#MISSING_NAME} when there was none (or only blanks). */
    public static String name(String streamed) {
        return streamed == null || streamed.isBlank() ? ToolCall.MISSING_NAME : streamed;
    }

    /** The streamed id, or a fresh one when there was none or a call of {@code earlier} already has it. */
    public static String id(String streamed, List<ToolCall> earlier) {
        boolean taken = earlier.stream().anyMatch(call -> call.id().equals(streamed));
        return streamed == null || streamed.isBlank() || taken ? ToolCall.freshId() : streamed;
    }
}
