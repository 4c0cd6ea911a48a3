package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SessionStatsTest {
    private final AtomicLong nanos = new AtomicLong();
    private final SessionStats stats = new SessionStats(nanos::get);

    private void at(long millis, AgentEvent event) {
        nanos.set(Duration.ofMillis(millis).toNanos());
        stats.accept(event);
    }

    private static AgentEvent.ToolCallFinished finished(String tool, long millis) {
        return new AgentEvent.ToolCallFinished(
                new ToolCall("c", tool, "{}"),
                ToolCallStatus.SUCCESS,
                ToolResult.success("ok", "ok"),
                "",
                Duration.ofMillis(millis));
    }

    @Test
    void reportsRequestsTokensCallsByToolAndWhereTheTimeWent() {
        at(0, new AgentEvent.RequestStarted(1));
        at(400, new AgentEvent.Usage(new TokenUsage(1000, 50), AgentEvent.Usage.Source.PROVIDER));
        at(400, new AgentEvent.ContextUsed(1050, 200_000));
        at(500, finished("read_file", 30));
        at(500, finished("read_file", 20));
        at(500, finished("edit", 1200));
        at(2000, new AgentEvent.RequestStarted(2));
        at(2600, new AgentEvent.Usage(new TokenUsage(3000, 80), AgentEvent.Usage.Source.ESTIMATED));
        at(2600, new AgentEvent.ContextUsed(3080, 200_000));

        assertEquals(
                List.of(
                        "Model requests   2",
                        "Tokens in / out  4000 / 130 (estimated: the provider reported no usage for some requests)",
                        "Time in model    1.0 s",
                        "Time in tools    1.3 s",
                        "Tool calls       3",
                        "  edit                1",
                        "  read_file           2",
                        "Context          ~3080 of 200000 tokens (2%)"),
                stats.report());
        assertEquals("2%", stats.contextPercent());
    }

    @Test
    void aNewConversationForgetsTheContextButKeepsTheTotals() {
        at(0, new AgentEvent.RequestStarted(1));
        at(100, new AgentEvent.Usage(new TokenUsage(10, 1), AgentEvent.Usage.Source.PROVIDER));
        at(100, new AgentEvent.ContextUsed(11, 1000));

        stats.newConversation();

        assertEquals("", stats.contextPercent());
        assertEquals("Model requests   1", stats.report().get(0));
    }
}
