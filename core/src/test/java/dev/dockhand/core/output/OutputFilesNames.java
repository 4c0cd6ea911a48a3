package dev.dockhand.core.output;

/** The names {@link OutputFiles} gives, for tests outside its package that look for a saved output. */
public final class OutputFilesNames {
    private OutputFilesNames() {}

    /** The name of the first output a session saves for call {@code callId}. */
    public static String first(String callId) {
        return OutputFiles.name(1, callId);
    }
}
