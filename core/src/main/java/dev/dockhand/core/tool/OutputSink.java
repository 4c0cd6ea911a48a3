package dev.dockhand.core.tool;

/** Receives a running tool's output line by line, for live display. Must be cheap and must not block. */
@FunctionalInterface
public interface OutputSink {
    OutputSink NONE = line -> {};

    void line(String line);

    /**
     * How far the running call has come, as its tool reports it (an MCP server's progress notifications): {@code
     * progress} of {@code total} when the total is known (else null), with the tool's own words or null.
     */
    default void progress(double progress, Double total, String message) {}
}
