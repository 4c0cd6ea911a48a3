package dev.dockhand.core.model;

/**
 * Builds one reply from a provider's stream, one event (an SSE data field or an NDJSON line) at a time. Each
 * provider has its own; the streaming and failure handling around it are shared ({@link ProviderStreams}).
 */
public interface ReplyAssembler {

    /** Consumes one event; throws when the event reports an error. */
    void accept(String data) throws ProviderException;

    /** Whether the stream said the reply is complete (a final event or a finish reason). */
    boolean complete();

    /** The reply so far; with {@code cancelled}, marked as cut short by the user. */
    ModelReply reply(boolean cancelled);
}
