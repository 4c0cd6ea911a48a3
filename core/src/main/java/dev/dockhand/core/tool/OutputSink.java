package dev.dockhand.core.tool;

/** Receives a running tool's output line by line, for live display. Must be cheap and must not block. */
@FunctionalInterface
public interface OutputSink {
    OutputSink NONE = line -> {};

    void line(String line);
}
