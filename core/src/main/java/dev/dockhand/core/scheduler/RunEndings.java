package dev.dockhand.core.scheduler;

import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.util.Optional;

/** What a finished run's result becomes before the model sees it, when the tool's own words would mislead. */
final class RunEndings {
    private RunEndings() {}

    /**
     * A tool that stops early on a cancel often returns what it had as an ordinary result (a search returns the
     * matches found so far, even "no matches"); the model would take it for the whole answer. So a result the tool
     * returned after the user cancelled ends CANCELLED, with what it returned and a note that it may be incomplete.
     * A failure the tool reported is kept as it is: it says more than "cancelled" does.
     */
    static ToolResult afterCancel(ToolResult result) {
        if (result.isError()) {
            return result;
        }
        return result.withText(
                result.llmContent() + "\n[The user cancelled this call while it ran, so this output may be"
                        + " incomplete.]",
                result.display(),
                Optional.of(ToolErrorType.CANCELLED));
    }

    /**
     * A result with no text still tells the model the call ran: an empty tool result reads like a lost one, and some
     * providers refuse an empty one that is marked as an error.
     */
    static ToolResult withSomeText(ToolResult result, String toolName) {
        if (!result.llmContent().isBlank()) {
            return result;
        }
        if (!result.images().isEmpty()) {
            // An image alone is an answer; the line says so, also to a model that gets the image described.
            String text = "(" + toolName + " returned " + result.images().size() + " image"
                    + (result.images().size() == 1 ? "" : "s") + ")";
            return result.withText(text, result.display().isEmpty() ? text : result.display(), result.error());
        }
        String text = "(" + toolName + (result.isError() ? " failed" : " completed") + " with no output)";
        return result.withText(text, result.display().isEmpty() ? text : result.display(), result.error());
    }
}
