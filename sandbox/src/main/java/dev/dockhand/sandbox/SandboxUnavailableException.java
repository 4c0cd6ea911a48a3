package dev.dockhand.sandbox;

/** The sandbox cannot run commands at all (no Docker, no image); the message says what failed and how to fix it. */
public final class SandboxUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public SandboxUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
