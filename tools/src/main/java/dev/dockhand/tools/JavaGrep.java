package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.glob.Glob;
import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The search grep falls back to without ripgrep; it must give exactly ripgrep's results, in the same order. */
final class JavaGrep {
    private JavaGrep() {}

    /** Searches below {@code start}; {@code guard} stops the regex ({@link RegexGuard.Stopped}). */
    static GrepTool.Found search(
            Pattern pattern,
            String glob,
            WorkspaceFile start,
            int max,
            Workspace workspace,
            Cancellation cancel,
            RegexGuard guard)
            throws IOException {
        Glob matcher = glob == null ? null : Glob.compile(glob);
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
            searchFile(file, content, pattern, guard, matches, max);
            if (matches.size() > max) {
                more[0] = true;
                return false;
            }
            return true;
        });
        List<GrepTool.Match> kept = matches.size() > max ? matches.subList(0, max) : matches;
        return new GrepTool.Found(List.copyOf(kept), more[0]);
    }

    /**
     * Searches one text file; a binary file is skipped, and so is one that became a link since the walk saw it. One
     * matcher serves every line, bounded to it, so {@code ^}, {@code $} and lookarounds see the line alone, as when
     * each line is matched as a string of its own; it reads each block of lines through {@code guard}.
     */
    private static void searchFile(
            Path file,
            WorkspaceWalker.Content content,
            Pattern pattern,
            RegexGuard guard,
            List<GrepTool.Match> matches,
            int max)
            throws IOException {
        SeekableByteChannel channel;
        try {
            channel = content.open();
        } catch (PathChangedException link) {
            return;
        }
        Matcher matcher = pattern.matcher("");
        String[] block = {null};
        CharSequence[] guarded = {null};
        try (channel) {
            TextLines.read(channel, (text, start, end, number) -> {
                if (text != block[0]) {
                    block[0] = text;
                    guarded[0] = guard.text(text);
                }
                if (matcher.reset(guarded[0]).region(start, end).find()) {
                    matches.add(new GrepTool.Match(file, number, text.substring(start, end)));
                }
                return matches.size() <= max;
            });
        }
    }
}
