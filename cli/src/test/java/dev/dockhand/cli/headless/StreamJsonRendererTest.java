package dev.dockhand.cli.headless;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.session.CostMeter;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamJsonRendererTest {
    private final StringWriter out = new StringWriter();
    private final CostMeter cost = new CostMeter(Pricing::builtIn, () -> "m");
    private final StreamJsonRenderer renderer = new StreamJsonRenderer(new PrintWriter(out), cost, new RunReport(cost));

    @Test
    void aSubAgentsProgressLineCarriesTheAgentsIdLikeItsOtherLines() {
        renderer.accept(new AgentEvent.SubAgentEvent("agent-1", new AgentEvent.ToolProgress("c1", 2, 5.0, "indexing")));
        renderer.accept(new AgentEvent.SubAgentEvent("agent-1", new AgentEvent.Warning("slow")));

        assertEquals(
                List.of(
                        Json.object()
                                .put("type", "tool_progress")
                                .put("schema_version", 1)
                                .put("id", "c1")
                                .put("progress", 2.0)
                                .put("total", 5.0)
                                .put("message", "indexing")
                                .put("agent", "agent-1"),
                        Json.object()
                                .put("type", "warning")
                                .put("schema_version", 1)
                                .put("message", "slow")
                                .put("agent", "agent-1")),
                out.toString().lines().map(Json::read).toList());
    }
}
