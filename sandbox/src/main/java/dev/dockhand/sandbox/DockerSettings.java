package dev.dockhand.sandbox;

import java.util.List;
import java.util.Objects;

/**
 * How the sandbox container is set up. The defaults give a command 2 GiB of memory, 2 CPUs, 512 processes and no
 * network, and pass it no variables from the host unless the user lists them.
 *
 * @param image the image to run, built by {@code scripts/build-sandbox-image.sh}
 * @param network a Docker network mode; {@code none} (the default) means no network at all
 * @param memoryBytes hard memory limit; swap is not allowed beyond it
 * @param cpus how many CPUs' worth of time the container may use
 * @param pids most processes at once (stops fork bombs)
 * @param envAllowlist names of host variables passed into the container; never API keys unless listed
 */
public record DockerSettings(
        String image, String network, long memoryBytes, double cpus, long pids, List<String> envAllowlist) {
    public static final String DEFAULT_IMAGE = "dockhand-sandbox:latest";
    public static final DockerSettings DEFAULT =
            new DockerSettings(DEFAULT_IMAGE, "none", 2L * 1024 * 1024 * 1024, 2.0, 512, List.of());

    public DockerSettings {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(network, "network");
        envAllowlist = List.copyOf(envAllowlist);
        if (memoryBytes < 6L * 1024 * 1024 || cpus <= 0 || pids < 16) {
            throw new IllegalArgumentException(
                    "sandbox limits too small: memory " + memoryBytes + " bytes, cpus " + cpus + ", pids " + pids);
        }
    }

    /** Parses sizes like {@code 512m}, {@code 2g}, {@code 1073741824}; null when unreadable. */
    public static Long parseSize(String text) {
        String value = text.strip().toLowerCase(java.util.Locale.ROOT);
        long unit = 1;
        if (value.endsWith("k") || value.endsWith("m") || value.endsWith("g")) {
            char suffix = value.charAt(value.length() - 1);
            unit = suffix == 'k' ? 1024L : suffix == 'm' ? 1024L * 1024 : 1024L * 1024 * 1024;
            value = value.substring(0, value.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(value), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }
}
