package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.TokenEstimator;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reasoning in the REPL, on a dumb terminal: there only finished lines are printed, so they can be read back. */
public class TurnViewTest {
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private Terminal terminal;
    private TurnView view;

    @BeforeEach
    void open() throws IOException {
        terminal = new ExternalTerminal(
                "test", Terminal.TYPE_DUMB, InputStream.nullInputStream(), written, StandardCharsets.UTF_8);
        view = new TurnView(new ReplScreen(terminal, true));
    }

    @AfterEach
    void close() throws IOException {
        view.close();
        terminal.close();
    }

    private List<String> lines() {
        terminal.writer().flush();
        return written.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void reasoningFollowedByToolCallsFoldsIntoOneLineWithTheReportedCount() {
        view.start();
        view.accept(new AgentEvent.RequestStarted(1));
        view.accept(new AgentEvent.ReasoningDelta("I should read\nthe notes first."));
        view.accept(new AgentEvent.Usage(new TokenUsage(100, 40, 0, 0, 27), AgentEvent.Usage.Source.PROVIDER));
        view.stop();

        assertEquals(List.of("thinking… (27 tokens)"), lines());
    }

    @Test
    void reasoningFollowedByTextIsCountedByEstimateSinceTheUsageComesLater() {
        String reasoning = "The user asks for a greeting, so a short one will do.";
        view.start();
        view.accept(new AgentEvent.ReasoningDelta(reasoning));
        view.accept(new AgentEvent.TextDelta("Hello!\n"));
        view.accept(new AgentEvent.Usage(new TokenUsage(100, 40, 0, 0, 27), AgentEvent.Usage.Source.PROVIDER));
        view.stop();

        assertEquals(List.of("thinking… (~" + TokenEstimator.text(reasoning) + " tokens)", "Hello!"), lines());
    }

    @Test
    void slashThinkingShowsTheReasoningInFullInstead() {
        assertEquals(true, view.toggleThinking());
        view.start();
        view.accept(new AgentEvent.ReasoningDelta("First, read"));
        view.accept(new AgentEvent.ReasoningDelta(" the notes.\nThen answer."));
        view.accept(new AgentEvent.TextDelta("Done.\n"));
        view.stop();

        assertEquals(List.of("First, read the notes.", "Then answer.", "Done."), lines());
        assertEquals(false, view.toggleThinking());
    }

    @Test
    void aSubAgentsOwnWorkStaysOffTheScreenAndItsCallEndsAsOneLine() {
        ToolCall call = new ToolCall("m1", "agent", "{}");
        ToolCall read = new ToolCall("e1", "read_file", "{}");
        view.start();
        view.accept(new AgentEvent.ToolCallUpdated(call, ToolCallStatus.EXECUTING, "explore: look"));
        view.accept(new AgentEvent.SubAgentStarted("explore-1", "m1", "explore", "look", "m"));
        view.accept(new AgentEvent.SubAgentEvent(
                "explore-1", new AgentEvent.ToolCallUpdated(read, ToolCallStatus.EXECUTING, "a.txt")));
        view.accept(new AgentEvent.SubAgentEvent(
                "explore-1",
                new AgentEvent.ToolCallFinished(
                        read, ToolCallStatus.SUCCESS, ToolResult.success("x", "1 line"), "a.txt", Duration.ZERO)));
        view.accept(new AgentEvent.SubAgentEvent("explore-1", new AgentEvent.TextDelta("Found it.\n")));
        view.accept(new AgentEvent.ToolCallFinished(
                call,
                ToolCallStatus.SUCCESS,
                ToolResult.success("Found it.", "Sub-agent explore-1 (explore) made 2 model requests and 1 tool call"),
                "explore: look",
                Duration.ZERO));
        view.stop();

        // Neither the sub-agent's read nor its text: only the agent call's own line.
        assertEquals(
                List.of("✓ agent explore: look · Sub-agent explore-1 (explore) made 2 model requests and 1 tool call"
                        + " (0 ms)"),
                lines());
    }

    @Test
    void expandedASubAgentsToolCallsStayUnderItsCallsLine() {
        ToolCall call = new ToolCall("m1", "agent", "{}");
        ToolCall read = new ToolCall("e1", "read_file", "{}");
        ToolCall grep = new ToolCall("e2", "grep", "{}");
        assertEquals(true, view.toggleAgents());
        view.start();
        view.accept(new AgentEvent.ToolCallUpdated(call, ToolCallStatus.EXECUTING, "explore: look"));
        view.accept(new AgentEvent.SubAgentStarted("explore-1", "m1", "explore", "look", "m"));
        for (ToolCall made : List.of(read, grep)) {
            view.accept(new AgentEvent.SubAgentEvent(
                    "explore-1", new AgentEvent.ToolCallUpdated(made, ToolCallStatus.EXECUTING, "a.txt")));
            view.accept(new AgentEvent.SubAgentEvent(
                    "explore-1",
                    new AgentEvent.ToolCallFinished(
                            made, ToolCallStatus.SUCCESS, ToolResult.success("x", "1 line"), "a.txt", Duration.ZERO)));
        }
        view.accept(new AgentEvent.SubAgentFinished(run("explore-1", "m1")));
        view.accept(new AgentEvent.ToolCallFinished(
                call, ToolCallStatus.SUCCESS, ToolResult.success("Found it.", "done"), "explore: look", Duration.ZERO));
        view.stop();

        assertEquals(
                List.of(
                        "✓ agent explore: look · done (0 ms)",
                        "    ✓ read_file a.txt · 1 line (0 ms)",
                        "    ✓ grep a.txt · 1 line (0 ms)"),
                lines());
        assertEquals(false, view.toggleAgents());
    }

    private static dev.dockhand.core.agent.SubAgentRun run(String id, String callId) {
        return new dev.dockhand.core.agent.SubAgentRun(
                id,
                callId,
                "explore",
                "look",
                "m",
                dev.dockhand.core.agent.DataPolicy.FULL,
                "answered",
                "Found it.",
                2,
                2,
                new TokenUsage(0, 0),
                "",
                java.util.Optional.empty());
    }

    @Test
    void aWarningReachesTheScreenWithoutEscapeSequences() {
        view.accept(new AgentEvent.Warning(
                "copying back: .git/hooks/\u001b]52;c;cHduZWQ=\u0007x was left \u001b[2J\nin the sandbox"));

        assertEquals(List.of("⚠ copying back: .git/hooks/x was left  in the sandbox"), lines());
    }
}
