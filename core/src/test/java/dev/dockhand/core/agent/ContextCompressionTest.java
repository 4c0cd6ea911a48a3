package dev.dockhand.core.agent;

import static dev.dockhand.core.testing.Sse.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.ApprovalMode;
import dev.dockhand.core.testing.EventRecorder;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.TestLoops;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContextCompressionTest {
    @TempDir
    Path workspace;

    private final ScriptedModel model = new ScriptedModel();
    private final EventRecorder events = new EventRecorder();

    @AfterEach
    void stopServer() {
        model.close();
    }

    private AgentLoop loop() {
        return TestLoops.loop(
                model, workspace, events, ApprovalMode.YOLO, request -> ApprovalDecision.allowOnce(), 10, List.of());
    }

    private static final ToolCall CALL = new ToolCall("c1", "echo", "{}");

    private static List<Message> history() {
        return List.of(
                new Message.System("SYSTEM"),
                new Message.User("one"),
                new Message.Assistant("", List.of(CALL)),
                new Message.ToolResult("c1", "echo", "echoed", false),
                new Message.Assistant("answer one", List.of()),
                new Message.User("two"),
                new Message.Assistant("answer two", List.of()),
                new Message.User("three"));
    }

    @Test
    void aLongResultInTheSummaryRequestIsCutBetweenWholeCharacters() {
        // U+1F600 straddles the end of the first 2,000 chars, and another the start of the last 2,000.
        String content = "h".repeat(1999) + "\uD83D\uDE00" + "m".repeat(500) + "\uD83D\uDE00" + "t".repeat(1999);
        List<Message> older = List.of(
                new Message.Assistant("", List.of(new ToolCall("c1", "read_file", "{}"))),
                new Message.ToolResult("c1", "read_file", content, false));

        assertEquals(
                "Summarise this conversation history:\n\nASSISTANT:\n\n[calls read_file {}]\n\nTOOL RESULT (read_file):\n"
                        + "h".repeat(1999) + "\n[… 504 characters left out …]\n" + "t".repeat(1999) + "\n\n",
                ContextCompressor.transcript(older));
    }

    @Test
    void theSplitKeepsTheLastTurnsWhole() {
        assertEquals(OptionalInt.of(5), ContextCompressor.splitPoint(history(), 2, 1_000_000));
    }

    @Test
    void aTightBudgetKeepsOnlyTheLastStepAndNeverStartsAtAToolResult() {
        assertEquals(OptionalInt.of(7), ContextCompressor.splitPoint(history(), 2, 1));
        List<Message> midTurn = history().subList(0, 4);
        // Only the current turn: the kept part starts at the call, with its result.
        assertEquals(OptionalInt.of(2), ContextCompressor.splitPoint(midTurn, 2, 1));
    }

    @Test
    void aConversationOfOnlyItsLastTurnsHasNothingToCompress() {
        assertEquals(OptionalInt.empty(), ContextCompressor.splitPoint(history().subList(0, 2), 2, 1_000_000));
        assertEquals(OptionalInt.empty(), ContextCompressor.splitPoint(history().subList(0, 5), 2, 1_000_000));
    }

    @Test
    void compactingReplacesTheOlderPartWithTheSummaryAndKeepsTurnsAlternating() {
        Conversation conversation = new Conversation("SYSTEM");
        for (Message message : history().subList(1, 7)) {
            if (message instanceof Message.User user) {
                conversation.addUser(user.text());
            } else if (message instanceof Message.Assistant assistant) {
                conversation.addAssistant(assistant);
            } else {
                conversation.addToolResult((Message.ToolResult) message);
            }
        }

        conversation.compact(5, "They said one.");

        assertEquals(
                List.of(
                        new Message.System("SYSTEM"),
                        new Message.User(Conversation.SUMMARY_HEADER + "\n\nThey said one."),
                        new Message.Assistant(Conversation.SUMMARY_ACKNOWLEDGED, List.of()),
                        new Message.User("two"),
                        new Message.Assistant("answer two", List.of())),
                conversation.messages());
    }

    @Test
    void compressOnDemandSummarisesTheOlderTurnsWithTheModel() throws Exception {
        model.enqueue(answer("A1"), answer("A2"), answer("A3"), answer("They asked one; I said A1."));
        AgentLoop loop = loop();
        for (String prompt : List.of("one", "two", "three")) {
            loop.run(prompt, new Cancellation());
        }
        for (int i = 0; i < 3; i++) {
            model.takeRequest();
        }

        AgentEvent.Compressed compressed = loop.compress(new Cancellation()).orElseThrow();

        JsonNode summaryRequest = model.takeRequest();
        assertEquals(
                ContextCompressor.INSTRUCTIONS,
                summaryRequest.at("/messages/0/content").asText());
        assertEquals(
                "Summarise this conversation history:\n\nUSER:\none\n\nASSISTANT:\nA1\n\n",
                summaryRequest.at("/messages/1/content").asText());
        assertTrue(summaryRequest.path("tools").isMissingNode(), summaryRequest.toString());
        assertEquals(
                List.of(
                        new Message.System("SYSTEM"),
                        new Message.User(Conversation.SUMMARY_HEADER + "\n\nThey asked one; I said A1."),
                        new Message.Assistant(Conversation.SUMMARY_ACKNOWLEDGED, List.of()),
                        new Message.User("two"),
                        new Message.Assistant("A2", List.of()),
                        new Message.User("three"),
                        new Message.Assistant("A3", List.of())),
                loop.conversation().messages());
        assertEquals(2, compressed.summarisedMessages());
        assertEquals(List.of(compressed), events.ofType(AgentEvent.Compressed.class));
    }

    @Test
    void theSummaryRequestIsBilledLikeAnyOther() throws Exception {
        model.enqueue(
                answer("A1"),
                answer("A2"),
                answer("A3"),
                dev.dockhand.core.testing.Sse.reply(
                        dev.dockhand.core.testing.Sse.text("They asked three things."),
                        dev.dockhand.core.testing.Sse.finish("stop"),
                        dev.dockhand.core.testing.Sse.usage(900, 40),
                        dev.dockhand.core.testing.Sse.done()));
        AgentLoop loop = loop();
        for (String prompt : List.of("one", "two", "three")) {
            loop.run(prompt, new Cancellation());
        }
        int before = events.ofType(AgentEvent.Usage.class).size();

        loop.compress(new Cancellation()).orElseThrow();

        List<AgentEvent.Usage> usage = events.ofType(AgentEvent.Usage.class);
        assertEquals(
                List.of(new AgentEvent.Usage(
                        new dev.dockhand.core.model.TokenUsage(900, 40), AgentEvent.Usage.Source.PROVIDER)),
                usage.subList(before, usage.size()));
    }

    @Test
    void aRequestOverTheThresholdIsPrecededByACompression() throws Exception {
        model.enqueue(answer("Noted."), answer("SUMMARY"), answer("Second answer."));
        AgentLoop loop = loop();
        loop.setContextPolicy(new ContextPolicy(OptionalLong.of(1024), 0.5, 2));

        loop.run("x".repeat(3000), new Cancellation());
        loop.run("next", new Cancellation());

        model.takeRequest();
        assertEquals(
                ContextCompressor.INSTRUCTIONS,
                model.takeRequest().at("/messages/0/content").asText());
        JsonNode next = model.takeRequest();
        assertEquals(
                List.of(Conversation.SUMMARY_HEADER + "\n\nSUMMARY", "Noted.", "next"),
                java.util.stream.StreamSupport.stream(next.get("messages").spliterator(), false)
                        .skip(1)
                        .map(message -> message.get("content").asText())
                        .toList());
        assertEquals(1, events.ofType(AgentEvent.Compressed.class).size());
    }

    @Test
    void usageIsEstimatedWhenTheProviderSendsNone() throws Exception {
        model.enqueue(answer("Twelve chars"));

        loop().run("count me", new Cancellation());

        AgentEvent.Usage usage = events.ofType(AgentEvent.Usage.class).get(0);
        assertEquals(AgentEvent.Usage.Source.ESTIMATED, usage.source());
        assertEquals(3, usage.usage().outputTokens());
        assertTrue(usage.usage().inputTokens() > 0, usage.toString());
    }

    @Test
    void theContextWindowComesFromSettingsOrTheTable() {
        assertEquals(200_000, ContextPolicy.DEFAULT.windowFor("claude-sonnet-4-5"));
        assertEquals(1_047_576, ContextPolicy.DEFAULT.windowFor("gpt-4.1-mini"));
        assertEquals(131_072, ContextPolicy.DEFAULT.windowFor("meta-llama/llama3.1:8b".replace("meta-llama/", "")));
        assertEquals(ContextPolicy.FALLBACK_WINDOW, ContextPolicy.DEFAULT.windowFor("my-own-model"));
        assertEquals(32_768, new ContextPolicy(OptionalLong.of(32_768), 0.7, 2).windowFor("claude-sonnet-4-5"));
    }
}
