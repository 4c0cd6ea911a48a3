package dev.dockhand.core.agent;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestLoops;
import dev.dockhand.core.testing.TestTools;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** After anything goes wrong inside a round, the next message still works and its request is valid. */
class TurnRecoveryTest {
    @TempDir
    Path workspace;

    private final ScriptedModel model = new ScriptedModel();
    private final EventRecorder events = new EventRecorder();

    @AfterEach
    void stopServer() {
        model.close();
    }

    private AgentLoop loop(TestTools.Base... tools) {
        return TestLoops.loop(
                model,
                workspace,
                events,
                ApprovalMode.YOLO,
                request -> ApprovalDecision.allowOnce(),
                10,
                List.of(tools));
    }

    @Test
    void aToolThatThrowsAnErrorLeavesTheNextMessageWorking() throws Exception {
        TestTools.Base overflowing = new TestTools.Base("scan", ToolKind.READ) {
            @Override
            public ToolResult execute(Params params, ToolContext context) {
                throw new StackOverflowError();
            }
        };
        AgentLoop loop = loop(overflowing);
        model.enqueue(calls(toolCall("s1", "scan", "{\"text\":\"x\"}")), answer("the scan failed"), answer("hello"));

        TurnResult first = loop.run("scan it", new Cancellation());
        TurnResult second = loop.run("and now?", new Cancellation());

        assertEquals(TurnResult.Outcome.ANSWERED, first.outcome());
        assertEquals("hello", second.answer());
        model.takeRequest();
        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(List.of("system", "user", "assistant", "tool", "assistant", "user"), roles(messages));
        String result = messages.get(3).get("content").asText();
        assertTrue(result.startsWith("scan failed unexpectedly: java.lang.StackOverflowError"), result);
    }

    @Test
    void callsLeftUnansweredByAFailedRoundAreAnsweredBeforeTheNextMessage() throws Exception {
        AgentLoop loop = loop(new TestTools.Echo("echo", ToolKind.READ));
        loop.conversation().addUser("earlier");
        loop.conversation()
                .addAssistant(new Message.Assistant("", List.of(new ToolCall("lost1", "echo", "{\"text\":\"x\"}"))));
        model.enqueue(answer("fine"));

        TurnResult result = loop.run("carry on", new Cancellation());

        assertEquals("fine", result.answer());
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals(List.of("system", "user", "assistant", "tool", "user"), roles(messages));
        assertEquals(AgentLoop.UNANSWERED, messages.get(3).get("content").asText());
    }

    private static List<String> roles(JsonNode messages) {
        List<String> roles = new ArrayList<>();
        messages.forEach(message -> roles.add(message.get("role").asText()));
        return roles;
    }
}
