package dev.dockhand.core.checkpoint;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The workspace's state just before one mutating tool call, and what that call changed.
 *
 * @param id unique in its workspace
 * @param sessionId the session whose call it was
 * @param time when it was taken
 * @param turn where the turn's user message stands in the session's transcript (its index among the messages read
 *     back), so a rewind can cut the conversation there
 * @param userMessage the user message of that turn
 * @param tool the tool called
 * @param callId the call's id
 * @param summary the call's one-line summary
 * @param before the snapshot's tree, taken before the call ran
 * @param after the snapshot's tree after the call, absent if the call never finished (Dockhand was stopped)
 * @param files the paths the call changed (added, changed, removed; a rename is both), known once it finished
 */
public record Checkpoint(
        String id,
        String sessionId,
        Instant time,
        int turn,
        String userMessage,
        String tool,
        String callId,
        String summary,
        String before,
        Optional<String> after,
        List<String> files) {

    public Checkpoint {
        files = List.copyOf(files);
    }

    Checkpoint finished(String afterTree, List<String> changed) {
        return new Checkpoint(
                id, sessionId, time, turn, userMessage, tool, callId, summary, before, Optional.of(afterTree), changed);
    }
}
