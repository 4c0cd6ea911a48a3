package dev.dockhand.core.agent;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.TokenEstimator;
import java.util.List;
import java.util.OptionalInt;

/**
 * Shrinks a long conversation: the older messages are summarised by the model itself into one message, the last
 * turns stay verbatim. The split always falls on a user or assistant message, so a tool call is never separated from
 * its result.
 */
final class ContextCompressor {
    /** A tool result longer than this reaches the summariser as head and tail: it needs the gist, not the bytes. */
    private static final int RESULT_CHARS = 4_000;

    static final String INSTRUCTIONS = "You compress the history of a conversation between a user and a coding"
            + " assistant that works in the user's project with tools (reading, searching and editing files, running"
            + " commands). Write a summary the assistant can continue from without the history: the user's goals and"
            + " instructions (quote their exact words where they matter), decisions made, files read or changed and"
            + " what was changed, commands run and their important results, errors met and how they were solved,"
            + " and what is still to do. Keep file paths, names and numbers exact. Write plain text under short"
            + " headings; no preamble.";

    private ContextCompressor() {}

    /**
     * Where the verbatim part begins: the earliest user or assistant message such that what follows it holds at most
     * {@code keepTurns} user messages and fits {@code budgetTokens}; at least the last round is kept. Empty when
     * there is nothing before that to summarise.
     */
    static OptionalInt splitPoint(List<Message> messages, int keepTurns, long budgetTokens) {
        int split = -1;
        int userTurns = 0;
        long tokens = 0;
        for (int i = messages.size() - 1; i >= 1; i--) {
            Message message = messages.get(i);
            tokens += TokenEstimator.messages(List.of(message));
            if (message instanceof Message.ToolResult) {
                continue;
            }
            if (split != -1 && tokens > budgetTokens) {
                break;
            }
            split = i;
            if (message instanceof Message.User && ++userTurns == keepTurns) {
                break;
            }
        }
        return split >= 2 ? OptionalInt.of(split) : OptionalInt.empty();
    }

    /**
     * Asks the model for a summary of {@code older}; no tools are offered, nothing is streamed to the user. The reply
     * carries its usage: a summary request is billed like any other.
     */
    static ModelReply summarise(ModelClient client, String model, List<Message> older, Cancellation cancel)
            throws ProviderException {
        List<Message> request = List.of(new Message.System(INSTRUCTIONS), new Message.User(transcript(older)));
        return client.stream(new ModelRequest(model, request, List.of()), text -> {}, cancel);
    }

    /** The messages as plain text, one labelled block each. */
    static String transcript(List<Message> older) {
        StringBuilder text = new StringBuilder("Summarise this conversation history:\n\n");
        for (Message message : older) {
            if (message instanceof Message.User user) {
                text.append("USER:\n").append(user.text());
            } else if (message instanceof Message.Assistant assistant) {
                text.append("ASSISTANT:\n").append(assistant.text());
                for (ToolCall call : assistant.toolCalls()) {
                    text.append("\n[calls ")
                            .append(call.name())
                            .append(' ')
                            .append(call.arguments())
                            .append(']');
                }
            } else if (message instanceof Message.ToolResult result) {
                text.append("TOOL RESULT (")
                        .append(result.toolName())
                        .append(result.error() ? ", failed" : "")
                        .append("):\n")
                        .append(cut(result.content()));
            }
            text.append("\n\n");
        }
        return text.toString();
    }

    private static String cut(String content) {
        if (content.length() <= RESULT_CHARS) {
            return content;
        }
        int half = RESULT_CHARS / 2;
        String head = Utf16.head(content, half);
        String tail = Utf16.tail(content, half);
        return head + "\n[… " + (content.length() - head.length() - tail.length()) + " characters left out …]\n" + tail;
    }
}
