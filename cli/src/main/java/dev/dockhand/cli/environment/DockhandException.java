package dev.dockhand.cli.environment;

/**
 * A failure the user must act on: one sentence saying what went wrong and what to do, and the exit code. Printed
 * without a stack trace unless {@code --stacktrace} is given.
 */
public final class DockhandException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public DockhandException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public DockhandException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
