package dev.dockhand.core.conversation;

import java.util.Objects;

/**
 * Material a provider attached to one reply that only it can read back, kept so it can be replayed to it verbatim:
 * Gemini's thought signatures, Anthropic's thinking blocks with their signatures, the Responses API's reasoning items,
 * OpenRouter's reasoning details. {@code wire} names the wire format that produced it ({@link #NONE} has none); each
 * request writer uses the state of its own wire and drops any other, because a provider cannot validate another's
 * signatures. {@code json} is a JSON text whose shape belongs to that writer.
 */
public record ProviderState(String wire, String json) {

    /** No state: the reply carried nothing to replay. */
    public static final ProviderState NONE = new ProviderState("", "");

    public ProviderState {
        Objects.requireNonNull(wire, "wire");
        Objects.requireNonNull(json, "json");
    }

    /** Whether this state came from {@code wire} and holds something. */
    public boolean from(String wire) {
        return !json.isEmpty() && this.wire.equals(wire);
    }

    public boolean isEmpty() {
        return json.isEmpty();
    }
}
