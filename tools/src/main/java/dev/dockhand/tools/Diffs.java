package dev.dockhand.tools;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Patch;
import java.util.List;

/** Unified diffs of a file's text before and after a change, for approval prompts and results. */
final class Diffs {
    private static final int CONTEXT_LINES = 3;

    private Diffs() {}

    /** A unified diff with {@code a/} and {@code b/} headers, as git shows it; empty when nothing changed. */
    static String unified(String path, String before, String after) {
        List<String> original = before.lines().toList();
        List<String> revised = after.lines().toList();
        Patch<String> patch = DiffUtils.diff(original, revised);
        if (patch.getDeltas().isEmpty()) {
            return "";
        }
        List<String> lines = UnifiedDiffUtils.generateUnifiedDiff(
                before.isEmpty() ? "/dev/null" : "a/" + path, "b/" + path, original, patch, CONTEXT_LINES);
        String diff = String.join("\n", lines) + "\n";
        // java-diff-utils numbers an empty original from 1; git and patch write a new file's hunk as -0,0.
        return before.isEmpty() ? diff.replaceFirst("(?m)^@@ -1,0 ", "@@ -0,0 ") : diff;
    }

    /** "+3 -1": lines added and removed. */
    static String stat(String before, String after) {
        Patch<String> patch =
                DiffUtils.diff(before.lines().toList(), after.lines().toList());
        int added = 0;
        int removed = 0;
        for (AbstractDelta<String> delta : patch.getDeltas()) {
            added += delta.getTarget().size();
            removed += delta.getSource().size();
        }
        return "+" + added + " -" + removed;
    }
}
