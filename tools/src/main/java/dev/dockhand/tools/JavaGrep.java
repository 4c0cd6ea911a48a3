package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The search grep falls back to without ripgrep; it must give exactly ripgrep's results, in the same order. */
final class JavaGrep {
    private JavaGrep() {}

    static GrepTool.Found search(Pattern pattern, String glob, Path start, int max, Path root, Cancellation cancel)
            throws IOException {
        PathMatcher matcher = glob == null ? null : FileSystems.getDefault().getPathMatcher("glob:" + glob);
        boolean byName = glob != null && !glob.contains("/");
        List<GrepTool.Match> matches = new ArrayList<>();
        boolean[] more = {false};
        new WorkspaceWalker(new IgnoreRules(root, List.of()), cancel).walk(start, (file, attributes) -> {
            if (matcher != null) {
                // Like ripgrep's --glob: a pattern without a slash matches the name at any depth.
                Path candidate =
                        byName ? file.getFileName() : (Files.isDirectory(start) ? start.relativize(file) : file);
                if (!matcher.matches(candidate)) {
                    return true;
                }
            }
            if (TextFiles.isBinary(file)) {
                return true;
            }
            searchFile(file, pattern, matches, max);
            if (matches.size() > max) {
                more[0] = true;
                return false;
            }
            return true;
        });
        List<GrepTool.Match> kept = matches.size() > max ? matches.subList(0, max) : matches;
        return new GrepTool.Found(List.copyOf(kept), more[0]);
    }

    private static void searchFile(Path file, Pattern pattern, List<GrepTool.Match> matches, int max)
            throws IOException {
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder))) {
            String line;
            long number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (pattern.matcher(line).find()) {
                    matches.add(new GrepTool.Match(file, number, line));
                    if (matches.size() > max) {
                        return;
                    }
                }
            }
        }
    }
}
