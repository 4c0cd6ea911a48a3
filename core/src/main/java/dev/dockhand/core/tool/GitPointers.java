package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The places outside a git folder that git runs or reads as if they were inside it: the folder
 * {@code core.hooksPath} names (a common set-up keeps hooks in a tracked {@code .githooks}), the files
 * {@code include.path} and {@code includeIf.*.path} name, and where hooks that are symbolic links lead. A model that
 * can write one of them plants code that runs at the user's next commit as surely as through {@code .git/hooks}, so
 * they are protected like it. Only places inside {@code root} count: the rest is outside the workspace anyway.
 */
final class GitPointers {
    private GitPointers() {}

    /** The places {@code gitFolder} (the git folder of the work tree {@code workTree}) points at, inside root. */
    static List<Path> of(Path gitFolder, Path workTree, Path root) {
        List<Path> places = new ArrayList<>();
        Path config = gitFolder.resolve("config");
        for (Setting setting : settings(config)) {
            Path base = setting.key().equals("core.hookspath") ? workTree : gitFolder;
            resolve(base, setting.value())
                    .filter(place -> place.startsWith(root))
                    .ifPresent(places::add);
        }
        Path hooks = gitFolder.resolve("hooks");
        if (Files.isDirectory(hooks, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> entries = Files.list(hooks)) {
                entries.filter(Files::isSymbolicLink).forEach(link -> target(link)
                        .filter(place -> place.startsWith(root))
                        .ifPresent(places::add));
            } catch (IOException | RuntimeException e) {
                // An unreadable hooks folder points nowhere we can see.
            }
        }
        return List.copyOf(places);
    }

    /** One setting of a git config file that names a place: its lower-case key and its value. */
    private record Setting(String key, String value) {}

    /**
     * The settings that name places, read the way git's config format allows: {@code [section]} and
     * {@code [section "subsection"]} headers, {@code key = value} lines, comments after {@code #} or {@code ;}, and
     * values in double quotes. Enough for the three keys read here; a line it cannot read is passed over.
     */
    private static List<Setting> settings(Path config) {
        List<String> lines;
        try {
            if (!Files.isRegularFile(config, LinkOption.NOFOLLOW_LINKS) || Files.size(config) > 1 << 20) {
                return List.of();
            }
            lines = Files.readAllLines(config, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        List<Setting> settings = new ArrayList<>();
        String section = "";
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("[")) {
                int end = line.indexOf(']');
                String header = end < 0 ? "" : line.substring(1, end).strip();
                int space = header.indexOf(' ');
                section = (space < 0 ? header : header.substring(0, space)).toLowerCase(Locale.ROOT);
                continue;
            }
            int equals = line.indexOf('=');
            if (equals < 0) {
                continue;
            }
            String key = section + "." + line.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            if (key.equals("core.hookspath") || key.equals("include.path") || key.equals("includeif.path")) {
                settings.add(new Setting(key, value(line.substring(equals + 1))));
            }
        }
        return settings;
    }

    private static String value(String text) {
        String value = text.strip();
        if (value.startsWith("\"")) {
            int end = value.indexOf('"', 1);
            return end < 0 ? value.substring(1) : value.substring(1, end);
        }
        for (char comment : new char[] {'#', ';'}) {
            int at = value.indexOf(comment);
            if (at >= 0) {
                value = value.substring(0, at).strip();
            }
        }
        return value;
    }

    /** A config value as a path: relative ones from {@code base}; {@code ~} (the user's home) is never inside. */
    private static Optional<Path> resolve(Path base, String value) {
        if (value.isEmpty() || value.startsWith("~")) {
            return Optional.empty();
        }
        try {
            return Optional.of(base.resolve(value).normalize());
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> target(Path link) {
        try {
            return Optional.of(
                    link.getParent().resolve(Files.readSymbolicLink(link)).normalize());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
