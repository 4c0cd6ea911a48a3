package dev.dockhand.cli.headless;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.session.CostMeter;
import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.SubAgentRun;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.redaction.Redactor;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Collects what a run did, for the machine-readable outputs: every tool call with its arguments, status and (cut)
 * result, and the token usage. {@link #result} is the object {@code --output-format json} prints and the last line
 * of {@code stream-json}.
 */
public final class RunReport implements AgentEventSink {
    static final int RESULT_CHARS = 2000;

    private final ArrayNode toolCalls = Json.MAPPER.createArrayNode();
    private final CostMeter cost;
    private TokenUsage usage = new TokenUsage(0, 0);
    private boolean estimated;
    private int requests;
    /** The sub-agents' calls and usage while they run, by id; their records once they end, in that order. */
    private final Map<String, AgentWork> running = new HashMap<>();

    private final ArrayNode agents = Json.MAPPER.createArrayNode();

    /** What one sub-agent did so far. */
    private static final class AgentWork {
        final ArrayNode calls = Json.MAPPER.createArrayNode();
        TokenUsage usage = TokenUsage.ZERO;
        boolean estimated;
    }

    /** @param cost the run's cost meter, which sees the same events */
    RunReport(CostMeter cost) {
        this.cost = cost;
    }

    @Override
    public synchronized void accept(AgentEvent event) {
        if (event instanceof AgentEvent.SubAgentEvent nested) {
            AgentWork work = running.computeIfAbsent(nested.agentId(), id -> new AgentWork());
            if (nested.event() instanceof AgentEvent.ToolCallFinished finished) {
                work.calls.add(toolCall(finished));
            } else if (nested.event() instanceof AgentEvent.Usage reported) {
                boolean guessed = reported.source() == AgentEvent.Usage.Source.ESTIMATED;
                work.usage = work.usage.plus(reported.usage());
                work.estimated |= guessed;
                // The run's usage is the whole run's, as its cost is.
                usage = usage.plus(reported.usage());
                estimated |= guessed;
            }
        } else if (event instanceof AgentEvent.SubAgentFinished finished) {
            agents.add(
                    agentRun(finished.run(), running.getOrDefault(finished.run().id(), new AgentWork())));
            running.remove(finished.run().id());
        } else if (event instanceof AgentEvent.ToolCallFinished finished) {
            toolCalls.add(toolCall(finished));
        } else if (event instanceof AgentEvent.Usage reported) {
            usage = usage.plus(reported.usage());
            estimated |= reported.source() == AgentEvent.Usage.Source.ESTIMATED;
        } else if (event instanceof AgentEvent.RequestStarted started) {
            requests = started.number();
        }
    }

    static ObjectNode toolCall(AgentEvent.ToolCallFinished finished) {
        ObjectNode node = Json.object();
        node.put("id", finished.call().id()).put("name", finished.call().name());
        node.set("arguments", arguments(finished.call()));
        node.put("status", finished.status().name().toLowerCase(Locale.ROOT));
        String result = finished.result().llmContent();
        node.put("result", result.length() > RESULT_CHARS ? Utf16.head(result, RESULT_CHARS) + "…" : result);
        node.put("duration_ms", finished.duration().toMillis());
        node.put("redacted", Redactor.count(finished.result().llmContent()));
        return node;
    }

    private ObjectNode agentRun(SubAgentRun run, AgentWork work) {
        ObjectNode node = Json.object()
                .put("agent", run.id())
                .put("call_id", run.callId())
                .put("name", run.agent())
                .put("description", run.description())
                .put("model", run.model())
                .put("outcome", run.outcome())
                .put("answer", run.answer())
                .put("turns", run.requests());
        node.set("tool_calls", work.calls.deepCopy());
        node.set("usage", usage(work.usage, work.estimated, cost.costOf(work.usage, run.model())));
        return node;
    }

    /** The record of sub-agent {@code id} once it ended, as the result lists it; its stream-json line is the same. */
    synchronized ObjectNode agentRun(String id) {
        for (JsonNode run : agents) {
            if (run.path("agent").asText().equals(id)) {
                return ((ObjectNode) run).deepCopy();
            }
        }
        return Json.object().put("agent", id);
    }

    /** The arguments as JSON when they are, else as the text the model sent. */
    static com.fasterxml.jackson.databind.JsonNode arguments(ToolCall call) {
        try {
            com.fasterxml.jackson.databind.JsonNode parsed = Json.MAPPER.readTree(call.arguments());
            return parsed == null ? Json.MAPPER.getNodeFactory().textNode(call.arguments()) : parsed;
        } catch (java.io.IOException notJson) {
            return Json.MAPPER.getNodeFactory().textNode(call.arguments());
        }
    }

    /**
     * Token counts; {@code estimated} is true when the provider sent none for some request and Dockhand guessed.
     * {@code input_tokens} is the whole prompt, of which {@code cached_input_tokens} were read from the provider's
     * cache and {@code cache_write_tokens} written to it; {@code output_tokens} includes {@code reasoning_tokens}.
     * {@code cost_usd} is null when the model has no price.
     */
    static ObjectNode usage(TokenUsage usage, boolean estimated, OptionalDouble cost) {
        ObjectNode node = Json.object()
                .put("input_tokens", usage.inputTokens())
                .put("cached_input_tokens", usage.cachedInputTokens())
                .put("cache_write_tokens", usage.cacheWriteTokens())
                .put("output_tokens", usage.outputTokens())
                .put("reasoning_tokens", usage.reasoningTokens())
                .put("estimated", estimated);
        if (cost.isPresent()) {
            node.put("cost_usd", cost.getAsDouble());
        } else {
            node.putNull("cost_usd");
        }
        return node;
    }

    /** The final object: answer, session, turns, tool calls, usage, duration, exit code, and the error if any. */
    synchronized ObjectNode result(
            String sessionId, String answer, long durationMillis, int exitCode, RunFailure failure) {
        ObjectNode result =
                Json.object().put("type", "result").put("session_id", sessionId).put("answer", answer);
        result.put("turns", requests);
        result.set("tool_calls", toolCalls.deepCopy());
        result.set("usage", usage(usage, estimated, cost.total()));
        result.set("agents", agents.deepCopy());
        result.put("duration_ms", durationMillis).put("exit_code", exitCode);
        if (failure == null) {
            result.putNull("error");
        } else {
            result.putObject("error").put("kind", failure.kind()).put("message", failure.message());
        }
        return result;
    }

    /** Why a run did not succeed: a short kind for programs, and the sentence shown on stderr. */
    record RunFailure(String kind, String message) {}
}
