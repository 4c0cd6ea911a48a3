package dev.dockhand.core.output;

/** How much of one tool result the model sees before it is cut to a head and a tail. */
public record OutputLimits(int maxChars, int maxLines) {
    public static final OutputLimits DEFAULT = new OutputLimits(30_000, 1_000);

    public OutputLimits {
        if (maxChars < 100 || maxLines < 10) {
            throw new IllegalArgumentException(
                    "output limits must allow at least 100 characters and 10 lines, got " + maxChars + "/" + maxLines);
        }
    }
}
