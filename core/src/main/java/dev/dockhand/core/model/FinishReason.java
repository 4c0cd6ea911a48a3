package dev.dockhand.core.model;

/** Why the model stopped. Tool calls present in a reply are run whatever this says; servers disagree on it. */
public enum FinishReason {
    /** The model finished its answer. */
    STOP,
    /** The model asked for tools. */
    TOOL_CALLS,
    /** The output-token limit cut the reply short. */
    LENGTH,
    /** The provider's content filter stopped the reply. */
    CONTENT_FILTER,
    /** The user cancelled while the reply streamed; the reply holds what arrived before. */
    CANCELLED,
    /** The provider gave no reason, or one we do not know. */
    OTHER;

    /** The reason a reply ended: the user's cancel wins, else what the stream said, else {@link #OTHER}. */
    public static FinishReason of(boolean cancelled, FinishReason reported) {
        if (cancelled) {
            return CANCELLED;
        }
        return reported == null ? OTHER : reported;
    }
}
