package dev.dockhand.cli.environment;

/**
 * A failure the user must act on: one sentence saying what went wrong and what to do, and the exit code. Printed
 * without a stack trace unless {@code --stacktrace} is given. The sentence often quotes a settings file's value, which
 * a cloned repository wrote: it is kept to one line of printable text, so no escape sequence in it reaches the
 * terminal.
 */
public final class DockhandException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public DockhandException(int exitCode, String message) {
        super(oneLine(message));
        this.exitCode = exitCode;
    }

    public DockhandException(int exitCode, String message, Throwable cause) {
        super(oneLine(message), cause);
        this.exitCode = exitCode;
    }

    private static String oneLine(String message) {
        return message == null ? null : Rendering.printable(message.replaceAll("\\R", " "));
    }

    public int exitCode() {
        return exitCode;
    }
}
