package dev.dockhand.core.sandbox;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * A command started with {@link Sandbox#start}: it runs on after the call that started it has returned, until it
 * exits, is {@linkplain #kill killed}, or its sandbox closes. When its main process exits, every process it started
 * is killed, as for {@link Sandbox#exec}.
 */
public interface BackgroundProcess {

    /** Dockhand's name for it, {@code bg-1}, {@code bg-2}, … in the order its sandbox started them. */
    String id();

    /** The command, as given. */
    String command();

    Instant started();

    /** The file its combined stdout and stderr are appended to as they come; named after {@link #id}. */
    Path outputFile();

    /**
     * How it ended, or empty while it runs. It ended {@link ExecResult.Termination#CANCELLED} when it was killed on
     * request or by the sandbox's close.
     */
    Optional<ExecResult> result();

    /**
     * Kills every process it started and returns how it ended; if it had already ended, only says how. The result may
     * carry a notice, as {@link Sandbox#exec}'s does.
     */
    ExecResult kill();
}
