package dev.dockhand.core.sandbox;

/** How a command ended. {@code exitCode} is meaningful only when it {@link Termination#EXITED}. */
public record ExecResult(int exitCode, Termination termination) {

    /** Whether the command ended by itself or was killed, and by what. */
    public enum Termination {
        /** The command exited by itself with {@code exitCode}. */
        EXITED,
        /** The command outlived its time-out and its process tree was killed. */
        TIMED_OUT,
        /** The user cancelled and the command's process tree was killed. */
        CANCELLED,
        /** The kernel killed the command for going over the sandbox's memory limit. */
        OUT_OF_MEMORY
    }

    public static ExecResult exited(int exitCode) {
        return new ExecResult(exitCode, Termination.EXITED);
    }
}
