package dev.dockhand.sandbox;

import java.util.Map;

/**
 * How much of the workspace the sync transport copies: files larger than {@code maxFileBytes} stay where they are (on
 * the host when the container starts, in the container when a command writes one), and a container does not start
 * when the files to copy in add up to more than {@code maxTotalBytes}.
 */
record SyncLimits(long maxFileBytes, long maxTotalBytes) {
    static final String MAX_FILE = "DOCKHAND_SANDBOX_SYNC_MAX_FILE";
    static final String MAX_TOTAL = "DOCKHAND_SANDBOX_SYNC_MAX_TOTAL";
    static final SyncLimits DEFAULT = new SyncLimits(100L << 20, 2L << 30);

    /**
     * The limits {@code env} sets with {@value #MAX_FILE} and {@value #MAX_TOTAL} (sizes like {@code 50m}, {@code 4g}),
     * the defaults for what it does not set.
     *
     * @throws IllegalArgumentException with a sentence for the user when a value is not a size
     */
    static SyncLimits from(Map<String, String> env) {
        return new SyncLimits(size(env, MAX_FILE, DEFAULT.maxFileBytes), size(env, MAX_TOTAL, DEFAULT.maxTotalBytes));
    }

    private static long size(Map<String, String> env, String name, long otherwise) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        Long size = DockerSettings.parseSize(value);
        if (size == null || size < 0) {
            throw new IllegalArgumentException(name + "=" + value + " is not a size; write it like 50m or 4g.");
        }
        return size;
    }
}
