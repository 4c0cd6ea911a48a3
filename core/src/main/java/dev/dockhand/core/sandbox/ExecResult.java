package dev.dockhand.core.sandbox;

import java.util.Objects;
import java.util.Optional;

/**
 * How a command ended. {@code exitCode} is meaningful only when it {@link Termination#EXITED}. {@code notice} is a
 * sentence from the sandbox about something that happened to the sandbox itself while the command ran (its container
 * was replaced), for whoever reads the result; empty almost always.
 */
public record ExecResult(int exitCode, Termination termination, Optional<String> notice) {

    /** Whether the command ended by itself or was killed, and by what. */
    public enum Termination {
        /** The command exited by itself with {@code exitCode}. */
        EXITED,
        /** The command outlived its time-out and its process tree was killed. */
        TIMED_OUT,
        /**
         * The user cancelled and the command's process tree was killed; for a background command, it was killed on
         * request or when the sandbox closed.
         */
        CANCELLED,
        /** The kernel killed the command for going over the sandbox's memory limit. */
        OUT_OF_MEMORY
    }

    public ExecResult {
        Objects.requireNonNull(termination, "termination");
        Objects.requireNonNull(notice, "notice");
    }

    public ExecResult(int exitCode, Termination termination) {
        this(exitCode, termination, Optional.empty());
    }

    public static ExecResult exited(int exitCode) {
        return new ExecResult(exitCode, Termination.EXITED);
    }

    /** This result with {@code sentence} as its notice, after the notice it had. */
    public ExecResult withNotice(String sentence) {
        return new ExecResult(
                exitCode,
                termination,
                Optional.of(notice.map(had -> had + " " + sentence).orElse(sentence)));
    }
}
