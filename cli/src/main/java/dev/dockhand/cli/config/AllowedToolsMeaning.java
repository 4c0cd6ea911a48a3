package dev.dockhand.cli.config;

import dev.dockhand.core.settings.Settings;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code tools.allowed} changed its meaning (CHANGELOG, 2026-11-25): it lists tools that run without a question,
 * where it used to narrow the tools offered, which is {@code tools.core} now. A file written for the old meaning
 * would let those tools run unasked, so a file that sets {@code tools.allowed} but no {@code tools.core} gets one
 * line at start. Setting {@code tools.core} (even to {@code []}, every tool) says the file knows the new meaning.
 */
final class AllowedToolsMeaning {
    private AllowedToolsMeaning() {}

    static Optional<String> warning(Path file, Settings settings) {
        if (!(Option.ALLOWED_TOOLS.read(settings) instanceof List<?> allowed)
                || allowed.isEmpty()
                || Option.TOOLS.read(settings) != null) {
            return Optional.empty();
        }
        return Optional.of(file + ": tools.allowed ("
                + allowed.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ") now lets these tools"
                + " run without a question; it used to narrow the tools offered, which tools.core does now. Move the"
                + " list there if that is what it meant, or set tools.core (even to []) to keep it and silence this.");
    }
}
