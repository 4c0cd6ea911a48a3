package dev.dockhand.core.agent;

import dev.dockhand.core.session.Transcript;
import java.util.Optional;

/** Where a sub-agent's whole conversation is kept under the {@code full} policy: a transcript beside the session's. */
@FunctionalInterface
public interface SubAgentTranscripts {
    /** Keeps nothing: for runs without a session transcript (tests). */
    SubAgentTranscripts NONE = (agentId, model) -> Optional.empty();

    /** A new transcript for sub-agent {@code agentId}; empty when there is no session to keep it beside. */
    Optional<Transcript> open(String agentId, String model);
}
