package dev.dockhand.core.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelReply;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LoopGuardTest {
    private static ModelReply calls(int count, String arguments) {
        List<ToolCall> calls = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            calls.add(new ToolCall("c" + i, "get_weather", arguments));
        }
        return new ModelReply("", calls, FinishReason.TOOL_CALLS, Optional.empty());
    }

    /** Follows the recorded Gemini 3 Flash reply with three identical parallel calls (see providers/SOURCES.md). */
    @Test
    void identicalCallsInOneReplyAreNotALoop() {
        LoopGuard guard = new LoopGuard();

        assertEquals(Optional.empty(), guard.record(calls(LoopGuard.SAME_CALLS + 2, "{\"city\":\"Paris\"}")));
    }

    @Test
    void theSameCallAcrossRepliesStillStopsTheTurn() {
        LoopGuard guard = new LoopGuard();
        List<Optional<String>> verdicts = new java.util.ArrayList<>();
        for (int i = 0; i < LoopGuard.SAME_CALLS; i++) {
            // Spacing and key order differ; the value is the same.
            verdicts.add(guard.record(calls(3, i % 2 == 0 ? "{\"city\":\"Paris\"}" : "{ \"city\" : \"Paris\" }")));
        }

        assertEquals(Collections.nCopies(LoopGuard.SAME_CALLS - 1, Optional.empty()), verdicts.subList(0, 4));
        assertTrue(verdicts.get(LoopGuard.SAME_CALLS - 1).isPresent());
    }
}
