package dev.dockhand.core.tool;

import dev.dockhand.core.Utf16;
import dev.dockhand.core.conversation.Image;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tool call produced. {@code llmContent} goes to the model; {@code display} is the short line the user sees;
 * {@code error} is present when the call failed; {@code images} go to the model beside the text (an MCP server's
 * screenshot, an image file read), as images where its provider takes them, else described.
 */
public record ToolResult(String llmContent, String display, Optional<ToolErrorType> error, List<Image> images) {
    public ToolResult {
        // Half a character (a cut inside an emoji, a server's lone escape) would be refused by the APIs, by strict JSON
        // readers of the events, and shows as garbage on the terminal.
        llmContent = Utf16.wellFormed(Objects.requireNonNull(llmContent, "llmContent"));
        display = Utf16.wellFormed(Objects.requireNonNull(display, "display"));
        Objects.requireNonNull(error, "error");
        images = List.copyOf(images);
    }

    /** A result of text alone. */
    public ToolResult(String llmContent, String display, Optional<ToolErrorType> error) {
        this(llmContent, display, error, List.of());
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

    /**
     * This result with other text, line or error and the same images: what every step that rewrites a result's text
     * (cutting it to the budget, redacting it, adding a note) uses, so no step drops the images by accident.
     */
    public ToolResult withText(String llmContent, String display, Optional<ToolErrorType> error) {
        return new ToolResult(llmContent, display, error, images);
    }

    public ToolResult withImages(List<Image> images) {
        return new ToolResult(llmContent, display, error, images);
    }
}
