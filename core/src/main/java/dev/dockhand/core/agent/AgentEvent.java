package dev.dockhand.core.agent;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;

/** What happens during a turn, in order, for renderers and transcripts. Core emits these and never prints. */
public sealed interface AgentEvent {

    /** A piece of the model's answer text, as it streamed in. */
    record TextDelta(String text) implements AgentEvent {}

    /**
     * A piece of the reasoning the model shows before it answers (DeepSeek's reasoning_content, Anthropic's thinking,
     * Gemini's thought summaries), as it streamed in. It is not part of the answer.
     */
    record ReasoningDelta(String text) implements AgentEvent {}

    /** A model request is about to be sent; {@code number} counts from 1 within the turn. */
    record RequestStarted(int number) implements AgentEvent {}

    /** A call moved to a non-terminal state (validating, awaiting approval, scheduled, executing). */
    record ToolCallUpdated(ToolCall call, ToolCallStatus status, String summary) implements AgentEvent {}

    /** A line of a running call's output. */
    record ToolOutput(String callId, String line) implements AgentEvent {}

    /**
     * How far a running call has come, as its tool reported it: {@code progress} of {@code total} (null when the
     * total is unknown), with the tool's own words (or null). Replaces the call's previous progress.
     */
    record ToolProgress(String callId, double progress, Double total, String message) implements AgentEvent {}

    /**
     * An MCP server's state changed: {@code state} is {@code connected} (its {@code tools} are offered from the next
     * request on), {@code failed} ({@code error} says why), {@code restarted} after a crash, or {@code
     * tools_changed}. It may come between turns as well as during one: servers start in the background.
     */
    record McpServerStatus(String server, String state, int tools, String error) implements AgentEvent {}

    /** A call reached its terminal state; {@code result} is what the model will read. */
    record ToolCallFinished(ToolCall call, ToolCallStatus status, ToolResult result, String summary, Duration duration)
            implements AgentEvent {}

    /** A request failed and will be tried again after {@code delay}; nothing of it had reached the user. */
    record Retrying(int attempt, int maxAttempts, Duration delay, String reason) implements AgentEvent {}

    /** A reply failed mid-stream; {@code partialText} (possibly empty) was kept in the conversation. */
    record ReplyFailed(String partialText, String error) implements AgentEvent {}

    /** The model's reply ended early: cut by the output limit, or stopped by the provider's content filter. */
    record ReplyCutShort(FinishReason reason) implements AgentEvent {}

    /** The model repeated itself and the turn was stopped; {@code message} says how. */
    record LoopDetected(String message) implements AgentEvent {}

    /** The tokens one request used, as the provider reported them or, when it reported none, estimated. */
    record Usage(TokenUsage usage, Source source) implements AgentEvent {
        /** Where the numbers come from. */
        public enum Source {
            /** The provider's own count. */
            PROVIDER,
            /** Dockhand's estimate from the text's length; the provider sent no usage. */
            ESTIMATED
        }
    }

    /** After a reply: about how many tokens the conversation holds now, and the model's context window. */
    record ContextUsed(long tokens, long window) implements AgentEvent {}

    /** Older messages were replaced by a summary written by the model; the transcript keeps them all. */
    record Compressed(int summarisedMessages, long tokensBefore, long tokensAfter) implements AgentEvent {}

    /** A compression was needed but the summary request failed; the turn goes on uncompressed. */
    record CompressionFailed(String error) implements AgentEvent {}

    /** Something the user should know that does not stop the turn, in one sentence (a transcript that fails). */
    record Warning(String message) implements AgentEvent {}

    /** The turn ended; see {@link TurnResult} for why. */
    record TurnCompleted(TurnResult result) implements AgentEvent {}

    /**
     * A sub-agent started, as {@code agentId} (like {@code explore-1}), for the {@code agent} call {@code callId} of
     * the main agent; {@code agent} is its definition's name, {@code description} the task in a few words.
     */
    record SubAgentStarted(String agentId, String callId, String agent, String description, String model)
            implements AgentEvent {}

    /**
     * An event of a running sub-agent's own loop, tagged with its id. Wrapped, so that what counts the main agent's
     * turn (its end, its requests, its tool results) is not misled; what counts the whole run's work unwraps it.
     */
    record SubAgentEvent(String agentId, AgentEvent event) implements AgentEvent {}

    /** A sub-agent ended: how, with its answer, counts and usage. */
    record SubAgentFinished(SubAgentRun run) implements AgentEvent {}
}
