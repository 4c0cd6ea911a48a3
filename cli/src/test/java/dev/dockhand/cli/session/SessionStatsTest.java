package dev.dockhand.cli.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.config.Pricing;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

public class SessionStatsTest {
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicReference<String> model = new AtomicReference<>("gpt-4.1");
    private final CostMeter cost = new CostMeter(Pricing::builtIn, model::get);
    private final SessionStats stats = new SessionStats(nanos::get, cost);

    private void at(long millis, AgentEvent event) {
        nanos.set(Duration.ofMillis(millis).toNanos());
        cost.accept(event);
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
                        "Tokens in        4000",
                        "Tokens out       130",
                        "                 estimated: the provider reported no usage for some requests",
                        // gpt-4.1: $2 in, $8 out per million: 4000 × 2 + 130 × 8 = 9040 millionths.
                        "Cost             $0.0090",
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
    void cacheAndReasoningTokensAreShownWithTheCostTheyMake() {
        model.set("claude-sonnet-4-5-20250929");
        at(0, new AgentEvent.RequestStarted(1));
        at(
                100,
                new AgentEvent.Usage(
                        new TokenUsage(10_000, 2_000, 6_000, 3_000, 500), AgentEvent.Usage.Source.PROVIDER));

        assertEquals(
                List.of(
                        "Tokens in        10000 (6000 read from the cache, 3000 written to it)",
                        "Tokens out       2000 (500 reasoning)",
                        // 1000 × $3 + 6000 × $0.30 + 3000 × $3.75 + 2000 × $15 per million = $0.04605.
                        "Cost             $0.05"),
                stats.report().subList(1, 4));
    }

    @Test
    void aRequestToAModelWithoutAPriceMakesTheCostUnknown() {
        at(0, new AgentEvent.RequestStarted(1));
        at(100, new AgentEvent.Usage(new TokenUsage(1000, 10), AgentEvent.Usage.Source.PROVIDER));
        model.set("my-local-model");
        at(200, new AgentEvent.RequestStarted(2));
        at(300, new AgentEvent.Usage(new TokenUsage(1000, 10), AgentEvent.Usage.Source.PROVIDER));

        assertEquals(
                "Cost             not known: a model of this session has no price (set one under pricing in the"
                        + " settings)",
                stats.report().get(3));
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

    @Test
    void aSubAgentsTokensAndCostAreTheSessionsAndAreSplitByAgent() {
        at(0, new AgentEvent.RequestStarted(1));
        at(100, new AgentEvent.Usage(new TokenUsage(1000, 50), AgentEvent.Usage.Source.PROVIDER));
        at(100, new AgentEvent.SubAgentStarted("explore-1", "c1", "explore", "look", "gpt-4.1-mini"));
        at(
                200,
                new AgentEvent.SubAgentEvent(
                        "explore-1",
                        new AgentEvent.Usage(new TokenUsage(2000, 100), AgentEvent.Usage.Source.PROVIDER)));
        at(300, new AgentEvent.SubAgentEvent("explore-1", finished("grep", 10)));

        assertEquals(
                List.of(
                        "Model requests   1",
                        "Tokens in        3000",
                        "Tokens out       150",
                        // gpt-4.1: 1000 × $2 + 50 × $8; gpt-4.1-mini: 2000 × $0.40 + 100 × $1.60 per million.
                        "Cost             $0.0034",
                        "By agent         main: 1000 in, 50 out, $0.0024",
                        "                 explore: 2000 in, 100 out, $0.0010",
                        "Time in model    100 ms",
                        // The times are the main agent's: its agent call ran while the sub-agent worked.
                        "Time in tools    0 ms",
                        "Tool calls       1",
                        "  grep                1"),
                stats.report());
    }
}
