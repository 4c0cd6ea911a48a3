package dev.dockhand.core.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.TokenUsage;
import java.util.Optional;

/**
 * What one sub-agent did: which agent, for which call, how it ended ({@code answered}, {@code cancelled},
 * {@code turn_limit}, {@code empty_reply}, {@code loop_detected}, {@code budget_spent} or {@code provider_failed}),
 * its answer (empty unless answered; the error when its provider failed), its model requests and tool calls, its
 * usage, the one line that says what it did, and, under the {@code full} policy, the transcript of its conversation.
 */
public record SubAgentRun(
        String id,
        String callId,
        String agent,
        String description,
        String model,
        DataPolicy dataPolicy,
        String outcome,
        String answer,
        int requests,
        int toolCalls,
        TokenUsage usage,
        String summary,
        Optional<String> transcript) {

    /**
     * The record of this run in the session's transcript, which its policy decides: {@code none} keeps the fact that
     * it ran; {@code summary} adds the task, the answer, counts and usage; {@code full} adds the link to its own
     * transcript, a path relative to the session's folder. A resumed session passes over it: the main conversation
     * holds the agent call and its result.
     */
    public ObjectNode record() {
        ObjectNode node = Json.object()
                .put("type", "subagent")
                .put("id", id)
                .put("call_id", callId)
                .put("agent", agent)
                .put("data_policy", dataPolicy.cliName())
                .put("outcome", outcome);
        if (dataPolicy == DataPolicy.NONE) {
            return node;
        }
        node.put("description", description).put("model", model).put("answer", answer);
        node.put("requests", requests).put("tool_calls", toolCalls);
        node.putObject("usage")
                .put("input_tokens", usage.inputTokens())
                .put("output_tokens", usage.outputTokens())
                .put("cached_input_tokens", usage.cachedInputTokens())
                .put("cache_write_tokens", usage.cacheWriteTokens())
                .put("reasoning_tokens", usage.reasoningTokens());
        transcript.ifPresent(path -> node.put("transcript", path));
        return node;
    }
}
