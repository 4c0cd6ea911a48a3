package dev.dockhand.cli.headless;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.session.CostMeter;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.scheduler.ToolCallStatus;
import java.io.PrintWriter;

/**
 * {@code --output-format stream-json}: one JSON object per line on stdout as things happen, for programs that
 * follow a run live. The line types are documented in the README.
 */
public final class StreamJsonRenderer implements AgentEventSink {
    private final PrintWriter out;
    private final CostMeter cost;
    private final RunReport report;

    /** @param report the run's report, fed the events first, which has each sub-agent's record when it ends */
    StreamJsonRenderer(PrintWriter out, CostMeter cost, RunReport report) {
        this.out = out;
        this.cost = cost;
        this.report = report;
    }

    synchronized void line(ObjectNode node) {
        print(out, node);
    }

    /**
     * The version of the objects Dockhand prints on stdout in json and stream-json, described by
     * {@code docs/headless-events.schema.json}. Within a version fields are only added; a rename, removal or change of
     * meaning bumps it (and is listed in CHANGELOG.md), so integrators can tell what they read.
     */
    static final int SCHEMA_VERSION = 1;

    /** Prints one object on its own line, its type first and the schema version second. */
    static void print(PrintWriter out, ObjectNode node) {
        ObjectNode versioned = Json.object();
        versioned.set("type", node.get("type"));
        versioned.put("schema_version", SCHEMA_VERSION);
        versioned.setAll(node);
        out.println(Json.writePrintable(versioned));
        out.flush();
    }

    @Override
    public void accept(AgentEvent event) {
        if (event instanceof AgentEvent.SubAgentEvent nested) {
            // A sub-agent's own work: the same lines, each with the agent's id.
            render(nested.event(), cost.modelOf(nested.agentId()), node -> line(node.put("agent", nested.agentId())));
        } else if (event instanceof AgentEvent.SubAgentStarted started) {
            line(Json.object()
                    .put("type", "agent_start")
                    .put("agent", started.agentId())
                    .put("call_id", started.callId())
                    .put("name", started.agent())
                    .put("description", started.description())
                    .put("model", started.model()));
        } else if (event instanceof AgentEvent.SubAgentFinished finished) {
            ObjectNode node = Json.object().put("type", "agent_result");
            node.setAll(report.agentRun(finished.run().id()));
            line(node);
        } else {
            render(event, null, this::line);
        }
    }

    /** The line of one event, if it has one; {@code model} prices a sub-agent's usage (null: the main model). */
    private void render(AgentEvent event, String model, java.util.function.Consumer<ObjectNode> line) {
        if (event instanceof AgentEvent.TextDelta delta) {
            line.accept(Json.object().put("type", "text").put("text", delta.text()));
        } else if (event instanceof AgentEvent.ReasoningDelta delta) {
            line.accept(Json.object().put("type", "thinking").put("text", delta.text()));
        } else if (event instanceof AgentEvent.ToolCallUpdated updated
                && updated.status() == ToolCallStatus.EXECUTING) {
            ObjectNode node = Json.object()
                    .put("type", "tool_call")
                    .put("id", updated.call().id())
                    .put("name", updated.call().name());
            node.set("arguments", RunReport.arguments(updated.call()));
            line.accept(node);
        } else if (event instanceof AgentEvent.ToolOutput output) {
            line.accept(Json.object()
                    .put("type", "tool_output")
                    .put("id", output.callId())
                    .put("line", output.line()));
        } else if (event instanceof AgentEvent.ToolCallFinished finished) {
            ObjectNode node = RunReport.toolCall(finished);
            node.put("type", "tool_result");
            line.accept(node);
        } else if (event instanceof AgentEvent.Usage usage) {
            ObjectNode node = RunReport.usage(
                    usage.usage(),
                    usage.source() == AgentEvent.Usage.Source.ESTIMATED,
                    model == null ? cost.costOf(usage.usage()) : cost.costOf(usage.usage(), model));
            node.put("type", "usage");
            line.accept(node);
        } else if (event instanceof AgentEvent.Retrying retrying) {
            line.accept(Json.object()
                    .put("type", "retry")
                    .put("attempt", retrying.attempt())
                    .put("max_attempts", retrying.maxAttempts())
                    .put("delay_ms", retrying.delay().toMillis())
                    .put("reason", retrying.reason()));
        } else if (event instanceof AgentEvent.ToolProgress progress) {
            ObjectNode node = Json.object()
                    .put("type", "tool_progress")
                    .put("id", progress.callId())
                    .put("progress", progress.progress());
            if (progress.total() != null) {
                node.put("total", progress.total());
            }
            if (progress.message() != null) {
                node.put("message", progress.message());
            }
            line.accept(node);
        } else if (event instanceof AgentEvent.McpServerStatus server) {
            ObjectNode node = Json.object()
                    .put("type", "mcp_server")
                    .put("name", server.server())
                    .put("status", server.state())
                    .put("tools", server.tools());
            if (server.error() != null) {
                node.put("error", server.error());
            }
            line.accept(node);
        } else if (event instanceof AgentEvent.Warning warning) {
            line.accept(Json.object().put("type", "warning").put("message", warning.message()));
        }
    }
}
