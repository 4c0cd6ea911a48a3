package dev.dockhand.core.settings;

import java.util.List;

/**
 * One settings file. Every key is optional; a missing one leaves the value to the layers below. Keys are the
 * command-line options in camelCase; API keys themselves are never stored, only the name of the variable that
 * holds one ({@code apiKeyEnv}).
 */
public record Settings(
        String provider,
        String model,
        String baseUrl,
        String apiKeyEnv,
        String approvalMode,
        Integer maxTurns,
        Sandbox sandbox,
        Tools tools,
        Truncation truncation,
        Compression compression) {
    public static final Settings EMPTY = new Settings(null, null, null, null, null, null, null, null, null, null);

    /** The sandbox block. */
    public record Sandbox(
            String kind, String image, String network, String memory, Double cpus, Long pids, List<String> env) {}

    /** Which tools are offered. */
    public record Tools(List<String> allowed, List<String> excluded) {}

    /** The budget of one tool result for the model. */
    public record Truncation(Integer maxChars, Integer maxLines) {}

    /**
     * When the conversation is compressed: at {@code threshold} (a fraction) of the model's context window, which is
     * {@code contextWindow} tokens when given, else taken from Dockhand's table of common models.
     */
    public record Compression(Double threshold, Long contextWindow) {}
}
