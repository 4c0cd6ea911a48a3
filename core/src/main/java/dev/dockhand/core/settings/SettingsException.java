package dev.dockhand.core.settings;

/** A settings file that cannot be used; the message names the file, the key and what was expected. */
public final class SettingsException extends Exception {
    private static final long serialVersionUID = 1L;

    public SettingsException(String message) {
        super(message);
    }

    public SettingsException(String message, Throwable cause) {
        super(message, cause);
    }
}
