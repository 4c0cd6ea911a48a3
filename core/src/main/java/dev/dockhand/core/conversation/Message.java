package dev.dockhand.core.conversation;

import dev.dockhand.core.Utf16;
import java.util.List;
import java.util.Objects;

/**
 * A message in the conversation. Providers map these to their own wire format in both directions. Its texts are
 * well-formed as it is made ({@link Utf16#wellFormed}): a surrogate without its partner, from a cut or from a server,
 * becomes U+FFFD here, since the message goes back with every later request and one API refusing it would refuse them
 * all.
 */
public sealed interface Message {

    /** Instructions for the model; at most one, first. */
    record System(String text) implements Message {
        public System {
            text = Utf16.wellFormed(Objects.requireNonNull(text, "text"));
        }
    }

    /**
     * What the user typed (plus anything piped or attached); or, with {@code fromHook}, what a Stop hook sent the model
     * back with: the model sees both alike, but only the user's own prompt starts a turn.
     */
    record User(String text, boolean fromHook) implements Message {
        public User {
            text = Utf16.wellFormed(Objects.requireNonNull(text, "text"));
        }

        public User(String text) {
            this(text, false);
        }
    }

    /**
     * One complete model reply: its text and every tool call it made, in the model's order; the reasoning text the
     * provider showed ({@code ""} when none), and what the provider needs back verbatim in later requests.
     */
    record Assistant(String text, List<ToolCall> toolCalls, String reasoning, ProviderState state) implements Message {
        public Assistant {
            text = Utf16.wellFormed(Objects.requireNonNull(text, "text"));
            toolCalls = List.copyOf(toolCalls);
            reasoning = Utf16.wellFormed(Objects.requireNonNull(reasoning, "reasoning"));
            Objects.requireNonNull(state, "state");
        }

        /** A reply with no reasoning and nothing to replay. */
        public Assistant(String text, List<ToolCall> toolCalls) {
            this(text, toolCalls, "", ProviderState.NONE);
        }

        public boolean hasToolCalls() {
            return !toolCalls.isEmpty();
        }
    }

    /**
     * The answer to one tool call; {@code error} tells providers that support it that the call failed. {@code images}
     * are what the tool returned beside its text (a screenshot, a file read); each provider's writer sends them as
     * its API takes images, or describes them in the text when the model takes none.
     */
    record ToolResult(String toolCallId, String toolName, String content, boolean error, List<Image> images)
            implements Message {
        public ToolResult {
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
            content = Utf16.wellFormed(Objects.requireNonNull(content, "content"));
            images = List.copyOf(images);
        }

        /** A result of text alone. */
        public ToolResult(String toolCallId, String toolName, String content, boolean error) {
            this(toolCallId, toolName, content, error, List.of());
        }

        public boolean hasImages() {
            return !images.isEmpty();
        }
    }
}
