package dev.dockhand.core.sandbox;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/** One shell command: its text, the folder it runs in, and how long it may take. */
public record ExecRequest(String command, Path directory, Duration timeout) {
    public ExecRequest {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(timeout, "timeout");
    }
}
