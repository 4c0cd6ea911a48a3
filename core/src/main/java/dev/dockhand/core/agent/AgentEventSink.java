package dev.dockhand.core.agent;

/**
 * Receives a turn's events. Called from the loop's thread and, for live tool output, from tool threads, so
 * implementations must be thread-safe; they must also be quick, since the loop waits for them.
 */
@FunctionalInterface
public interface AgentEventSink {
    AgentEventSink NONE = event -> {};

    void accept(AgentEvent event);
}
