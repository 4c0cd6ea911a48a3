package dev.dockhand.core.hooks;

import dev.dockhand.core.Cancellation;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Runs one hook command on the host: {@code bash -c command} in {@code directory}, {@code input} on its stdin,
 * {@code environment} added to the variables it inherits. When it returns, every process the command started has
 * been killed, whether it exited, outlived {@code timeout} or was cancelled. The sandbox module implements it with
 * commons-exec; core starts no process.
 */
@FunctionalInterface
public interface HookProcess {

    Finished run(Request request, Cancellation cancel) throws IOException;

    /** One hook run. */
    record Request(String command, Path directory, String input, Duration timeout, Map<String, String> environment) {
        public Request {
            Objects.requireNonNull(command, "command");
            Objects.requireNonNull(directory, "directory");
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(timeout, "timeout");
            environment = Map.copyOf(environment);
        }
    }

    /**
     * How it ended: its exit code (meaningful when it was neither timed out nor cancelled) and what it printed, each
     * stream cut at the implementation's bound.
     */
    record Finished(int exitCode, String stdout, String stderr, Ending ending) {
        public Finished {
            Objects.requireNonNull(stdout, "stdout");
            Objects.requireNonNull(stderr, "stderr");
            Objects.requireNonNull(ending, "ending");
        }

        public static Finished exited(int exitCode, String stdout, String stderr) {
            return new Finished(exitCode, stdout, stderr, Ending.EXITED);
        }
    }

    /** Whether the command exited by itself or was killed, and why. */
    enum Ending {
        EXITED,
        TIMED_OUT,
        CANCELLED
    }
}
