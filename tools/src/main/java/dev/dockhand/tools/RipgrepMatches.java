package dev.dockhand.tools;

import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * ripgrep opens files by path, so a folder swapped for a symlink while it runs (by a command still running in the
 * sandbox) could lead it to files outside the workspace. Every line it reports is therefore read again through the
 * workspace, one name at a time with no link followed, and its answer is used only when each of those lines is there,
 * the same, and matches the pattern; otherwise the Java search, which reads only that way, answers instead. What the
 * model sees was read inside the workspace either way. The check runs the Java regex on the host, so it reads each
 * line through the call's {@link RegexGuard}: ripgrep's own engine does not backtrack, Java's does.
 */
final class RipgrepMatches {
    private RipgrepMatches() {}

    static boolean confirmed(List<GrepTool.Match> matches, Pattern pattern, Workspace workspace, RegexGuard guard)
            throws IOException {
        Map<Path, List<GrepTool.Match>> byFile = matches.stream()
                .collect(Collectors.groupingBy(GrepTool.Match::file, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<Path, List<GrepTool.Match>> file : byFile.entrySet()) {
            Map<Long, String> lines = new HashMap<>();
            if (!read(file.getKey(), file.getValue(), lines, workspace)) {
                return false;
            }
            for (GrepTool.Match match : file.getValue()) {
                String line = lines.get(match.line());
                if (line == null
                        || !line.equals(match.text())
                        || !pattern.matcher(guard.text(line)).find()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Reads the reported lines of one file into {@code lines}; false when it cannot be read through the workspace. */
    private static boolean read(Path file, List<GrepTool.Match> matches, Map<Long, String> lines, Workspace workspace)
            throws IOException {
        Set<Long> wanted = matches.stream().map(GrepTool.Match::line).collect(Collectors.toSet());
        long last = Collections.max(wanted);
        try (WorkspaceFile opened = workspace.openForRead(file.toString())) {
            if (opened.kind() != WorkspaceFile.Kind.FILE) {
                return false;
            }
            // Split and decoded as the Java search reads, so a line ripgrep and it both read reads the same.
            try (SeekableByteChannel channel = opened.open()) {
                TextLines.read(channel, (text, start, end, number) -> {
                    if (wanted.contains(number)) {
                        lines.put(number, text.substring(start, end));
                    }
                    return number < last;
                });
            }
            return true;
        } catch (PathOutsideWorkspaceException | PathChangedException e) {
            return false;
        }
    }
}
