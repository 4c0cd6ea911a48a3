package dev.dockhand.core.settings;

/**
 * A Markdown file's front matter that cannot be used. The message says what is wrong, to follow the file's name:
 * "its front matter is not valid YAML (line 3: …)".
 */
public final class FrontMatterException extends Exception {
    private static final long serialVersionUID = 1L;

    public FrontMatterException(String message) {
        super(message);
    }

    public FrontMatterException(String message, Throwable cause) {
        super(message, cause);
    }
}
