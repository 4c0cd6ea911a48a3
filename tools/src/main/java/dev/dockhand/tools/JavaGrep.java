package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The search grep falls back to without ripgrep; it must give exactly ripgrep's results, in the same order. */
final class JavaGrep {
    private JavaGrep() {}

    static GrepTool.Found search(
            Pattern pattern, String glob, WorkspaceFile start, int max, Workspace workspace, Cancellation cancel)
            throws IOException {
        PathMatcher matcher = glob == null ? null : FileSystems.getDefault().getPathMatcher("glob:" + glob);
        boolean byName = glob != null && !glob.contains("/");
        boolean fromFolder = start.kind() == WorkspaceFile.Kind.DIRECTORY;
        List<GrepTool.Match> matches = new ArrayList<>();
        boolean[] more = {false};
        new WorkspaceWalker(new IgnoreRules(workspace, List.of()), cancel).walk(start, (file, attributes, content) -> {
            if (matcher != null) {
                // Like ripgrep's --glob: a pattern without a slash matches the name at any depth.
                Path candidate =
                        byName ? file.getFileName() : (fromFolder ? start.path().relativize(file) : file);
                if (!matcher.matches(candidate)) {
                    return true;
                }
            }
            searchFile(file, content, pattern, matches, max);
            if (matches.size() > max) {
                more[0] = true;
                return false;
            }
            return true;
        });
        List<GrepTool.Match> kept = matches.size() > max ? matches.subList(0, max) : matches;
        return new GrepTool.Found(List.copyOf(kept), more[0]);
    }

    /** Searches one text file; a binary file is skipped, and so is one that became a link since the walk saw it. */
    private static void searchFile(
            Path file, WorkspaceWalker.Content content, Pattern pattern, List<GrepTool.Match> matches, int max)
            throws IOException {
        SeekableByteChannel channel;
        try {
            channel = content.open();
        } catch (PathChangedException link) {
            return;
        }
        try (channel) {
            if (TextFiles.isBinary(TextFiles.head(channel))) {
                return;
            }
            var decoder = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), decoder));
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
