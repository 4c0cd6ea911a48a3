package dev.dockhand.core.tool;

import java.util.Objects;
import java.util.Optional;

/**
 * What a tool call produced. {@code llmContent} goes to the model; {@code display} is the short line the user sees;
 * {@code error} is present when the call failed.
 */
public record ToolResult(String llmContent, String display, Optional<ToolErrorType> error) {
    public ToolResult {
        Objects.requireNonNull(llmContent, "llmContent");
        Objects.requireNonNull(display, "display");
        Objects.requireNonNull(error, "error");
    }

    public static ToolResult success(String llmContent, String display) {
        return new ToolResult(llmContent, display, Optional.empty());
    }

    /** A failure whose message serves both the model and the user. */
    public static ToolResult error(ToolErrorType type, String message) {
        return new ToolResult(message, message, Optional.of(type));
    }

    public boolean isError() {
        return error.isPresent();
    }
}
