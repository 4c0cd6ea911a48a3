package dev.dockhand.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationTest {
    private final ToolCall first = new ToolCall("a", "read_file", "{}");
    private final ToolCall second = new ToolCall("b", "read_file", "{}");

    @Test
    void refusesARequestWhileToolCallsAreUnanswered() {
        Conversation conversation = new Conversation("sys");
        conversation.addUser("hi");
        conversation.addAssistant(new Message.Assistant("", List.of(first, second)));
        conversation.addToolResult(new Message.ToolResult("a", "read_file", "x", false));

        assertEquals(List.of(second), conversation.pendingCalls());
        assertThrows(IllegalStateException.class, conversation::messages);
        assertThrows(IllegalStateException.class, () -> conversation.addUser("next"));
    }

    @Test
    void halfACharacterInAnyMessageBecomesTheReplacementCharacter() {
        Conversation conversation = new Conversation("sys \uDE00");
        conversation.addUser("hi \uD83D");
        conversation.addAssistant(new Message.Assistant(
                "cut \uD83D",
                List.of(new ToolCall("a", "read_file", "{\"path\":\"\uD83D\"}")),
                "think \uDE00",
                ProviderState.NONE));
        conversation.addToolResult(new Message.ToolResult("a", "read_file", "emoji \uD83D\uDE00, half \uD83D", false));

        assertEquals(
                List.of(
                        new Message.System("sys \uFFFD"),
                        new Message.User("hi \uFFFD"),
                        new Message.Assistant(
                                "cut \uFFFD",
                                List.of(new ToolCall("a", "read_file", "{\"path\":\"\uFFFD\"}")),
                                "think \uFFFD",
                                ProviderState.NONE),
                        new Message.ToolResult("a", "read_file", "emoji \uD83D\uDE00, half \uFFFD", false)),
                conversation.messages());
    }

    @Test
    void refusesResultsOutOfOrderOrForNoCall() {
        Conversation conversation = new Conversation("sys");
        conversation.addAssistant(new Message.Assistant("", List.of(first, second)));

        assertThrows(
                IllegalStateException.class,
                () -> conversation.addToolResult(new Message.ToolResult("b", "read_file", "x", false)));
        conversation.addToolResult(new Message.ToolResult("a", "read_file", "x", false));
        conversation.addToolResult(new Message.ToolResult("b", "read_file", "y", false));
        assertThrows(
                IllegalStateException.class,
                () -> conversation.addToolResult(new Message.ToolResult("b", "read_file", "z", false)));
        assertEquals(4, conversation.messages().size());
    }

    @Test
    void refusesTwoCallsWithOneIdInAReply() {
        Conversation conversation = new Conversation("sys");

        assertThrows(
                IllegalStateException.class,
                () -> conversation.addAssistant(new Message.Assistant("", List.of(first, first))));
    }
}
