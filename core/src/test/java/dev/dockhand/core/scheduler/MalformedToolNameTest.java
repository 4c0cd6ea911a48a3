package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A call whose name no API takes back goes back to the provider as {@link ToolCall#INVALID_NAME}; the error result is
 * where the model learns what it wrote, quoted so that it reads as one printable line.
 */
class MalformedToolNameTest {
    private final CallValidator validator = new CallValidator(new ToolRegistry(List.of()));

    private ToolResult refusal(String name) {
        CallValidator.Outcome outcome = validator.validate(new ToolCall("c1", name, "{}"));
        return ((CallValidator.Invalid) outcome).result();
    }

    private static String said(String quoted) {
        return "Your tool call named " + quoted + " was not run: no tool has that name, and a tool name has only"
                + " letters, digits, _ and - (the call shows as invalid_tool_name in the history). This session"
                + " offers no tools.";
    }

    @Test
    void aDottedNameIsQuotedAsWritten() {
        ToolResult result = refusal("repo_browser.open_file");

        assertEquals(said("`repo_browser.open_file`"), result.llmContent());
        assertEquals(Optional.of(ToolErrorType.UNKNOWN_TOOL), result.error());
    }

    @Test
    void controlAndInvisibleCharactersAreEscapedAndALongNameIsCut() {
        assertEquals(
                said("`read\\u001b[31m_file\\u202e\\u0000`"),
                refusal("read\u001b[31m_file\u202e\u0000").llmContent());
        assertEquals(said("`" + "x".repeat(80) + "…`"), refusal("x".repeat(500)).llmContent());
    }

    @Test
    void aNameEveryApiTakesButNoToolHasIsAnUnknownTool() {
        assertEquals(
                "Unknown tool 'open_file'. This session offers no tools.",
                refusal("open_file").llmContent());
    }
}
