package dev.dockhand.core.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestLoops;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A blank prompt never reaches the model: Anthropic and Gemini take no blank text, so the turn would vanish from the
 * request and leave it ending on the model's reply, or empty. Callers refuse it with a sentence of their own; the loop
 * refuses it too, before it touches the conversation.
 */
class BlankPromptTest {
    @TempDir
    Path workspace;

    private final ScriptedModel model = new ScriptedModel();

    @AfterEach
    void stop() {
        model.close();
    }

    @Test
    void aBlankPromptIsRefusedBeforeAnythingIsAddedOrSent() {
        AgentLoop loop = TestLoops.loop(
                model,
                workspace,
                new EventRecorder(),
                ApprovalMode.DEFAULT,
                request -> ApprovalDecision.allowOnce(),
                10,
                List.of());

        for (String blank : List.of("", " \n\t")) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> loop.run(blank, new Cancellation()));
            assertEquals("A turn needs a prompt that is not blank.", refused.getMessage());
        }
        assertEquals(List.of(new Message.System("SYSTEM")), loop.conversation().messages());
        assertEquals(0, model.requestCount());
    }
}
