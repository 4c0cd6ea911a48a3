package dev.dockhand.cli.headless;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

public class SingleShotRendererTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private void play(SingleShotRenderer renderer) {
        renderer.accept(new AgentEvent.RequestStarted(1));
        renderer.accept(new AgentEvent.ReasoningDelta("The user wants"));
        renderer.accept(new AgentEvent.ReasoningDelta(" a greeting."));
        renderer.accept(new AgentEvent.TextDelta("Hello"));
        renderer.accept(new AgentEvent.Usage(new TokenUsage(10, 5, 0, 0, 3), AgentEvent.Usage.Source.PROVIDER));
        renderer.finish();
    }

    @Test
    void showThinkingPutsTheReasoningOnStderrAndLeavesStdoutTheAnswer() {
        play(new SingleShotRenderer(new PrintWriter(out), new PrintWriter(err), true));

        assertEquals("Hello\n", out.toString());
        assertEquals("The user wants a greeting.\n", err.toString());
    }

    @Test
    void withoutShowThinkingTheReasoningIsNotPrinted() {
        play(new SingleShotRenderer(new PrintWriter(out), new PrintWriter(err), false));

        assertEquals("Hello\n", out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void reasoningReachesTheTerminalWithoutEscapeSequences() {
        SingleShotRenderer renderer = new SingleShotRenderer(new PrintWriter(out), new PrintWriter(err), true);

        renderer.accept(new AgentEvent.ReasoningDelta("Plan:\n\u001b]52;c;ZWNobyBwd25lZA==\u0007copy \u001b[2Jthis\n"));
        renderer.finish();

        assertEquals("Plan:\ncopy this\n", err.toString());
    }

    @Test
    void warningsAndToolLinesReachTheTerminalWithoutEscapeSequences() {
        SingleShotRenderer renderer = new SingleShotRenderer(new PrintWriter(out), new PrintWriter(err), false);

        renderer.accept(new AgentEvent.Warning("copying back: .git/hooks/\u001b]52;c;cHduZWQ=\u0007x was left"));
        renderer.accept(new AgentEvent.ToolCallFinished(
                new ToolCall("c1", "run_shell_command", "{}"),
                ToolCallStatus.SUCCESS,
                ToolResult.success("out", "\u001b[2Jline one\nline \u001b[31mtwo"),
                "echo \u001b[1Ahi",
                Duration.ofMillis(5)));
        renderer.finish();

        assertEquals(
                "dockhand: copying back: .git/hooks/x was left\n"
                        + "✓ run_shell_command echo hi · line one (5 ms)\n"
                        + "    line two\n",
                err.toString());
    }
}
