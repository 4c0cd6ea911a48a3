package dev.dockhand.tools;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Chunk;
import com.github.difflib.patch.DeleteDelta;
import com.github.difflib.patch.InsertDelta;
import com.github.difflib.patch.Patch;
import java.util.List;

/**
 * Unified diffs of a file's text before and after a change, for approval prompts and results. They are computed on
 * the changed part only: the lines both texts start and end with are set aside first, in one pass. java-diff-utils'
 * Myers algorithm takes time that grows with the lines it is given times the lines that differ (a 20,000-line rewrite
 * took 13 s, and a 20,000-line new file as long), and nothing can cancel it while the user waits for the question. So
 * lines only added or only removed make one hunk without it, and a changed part of more than {@link #MAX_CHANGED_LINES}
 * lines on either side is described in one line instead.
 */
final class Diffs {
    private static final int CONTEXT_LINES = 3;

    /**
     * Past this many changed lines on a side, no diff: at most a few hundred milliseconds of the algorithm's time on a
     * slow machine (2,000 rewritten lines took 0.13 s where 20,000 took 13 s), and more lines than an approval
     * question shows (400).
     */
    static final int MAX_CHANGED_LINES = 2000;

    private Diffs() {}

    /** A change as the model and the user are shown it: its diff and its stat, from one comparison. */
    record Shown(String diff, String stat) {}

    /**
     * A unified diff with {@code a/} and {@code b/} headers, as git shows it; empty when nothing changed; for a change
     * too large to diff, one line saying what it replaces.
     */
    static String unified(String path, String before, String after) {
        return shown(path, before, after).diff();
    }

    /** "+3 -1": lines added and removed; for a change too large to diff, the changed part's lines on each side. */
    static String stat(String before, String after) {
        return shown("", before, after).stat();
    }

    /** The {@link #unified} diff and the {@link #stat} of one change, its lines compared once. */
    static Shown shown(String path, String before, String after) {
        List<String> original = before.lines().toList();
        List<String> revised = after.lines().toList();
        Changed changed = Changed.of(original, revised);
        if (changed.tooLarge()) {
            return new Shown(
                    "(" + path + ": replaces " + count(changed.removed()) + " with " + count(changed.added())
                            + (changed.prefix() == 0 ? "" : " from line " + (changed.prefix() + 1))
                            + "; too many changed lines to show as a diff)\n",
                    "+" + changed.added() + " -" + changed.removed());
        }
        Patch<String> patch = changed.patch();
        int added = 0;
        int removed = 0;
        for (AbstractDelta<String> delta : patch.getDeltas()) {
            added += delta.getTarget().size();
            removed += delta.getSource().size();
        }
        String stat = "+" + added + " -" + removed;
        if (patch.getDeltas().isEmpty()) {
            return new Shown("", stat);
        }
        List<String> lines = UnifiedDiffUtils.generateUnifiedDiff(
                before.isEmpty() ? "/dev/null" : "a/" + path, "b/" + path, original, patch, CONTEXT_LINES);
        String diff = String.join("\n", lines) + "\n";
        // java-diff-utils numbers an empty original from 1; git and patch write a new file's hunk as -0,0.
        return new Shown(before.isEmpty() ? diff.replaceFirst("(?m)^@@ -1,0 ", "@@ -0,0 ") : diff, stat);
    }

    private static String count(int lines) {
        return lines + (lines == 1 ? " line" : " lines");
    }

    /** The part of two texts' lines that differs: after the {@code prefix} lines they share, up to the lines they end with. */
    private record Changed(List<String> original, List<String> revised, int prefix, int removed, int added) {
        static Changed of(List<String> original, List<String> revised) {
            int prefix = 0;
            int most = Math.min(original.size(), revised.size());
            while (prefix < most && original.get(prefix).equals(revised.get(prefix))) {
                prefix++;
            }
            int suffix = 0;
            while (suffix < most - prefix
                    && original.get(original.size() - 1 - suffix).equals(revised.get(revised.size() - 1 - suffix))) {
                suffix++;
            }
            return new Changed(
                    original, revised, prefix, original.size() - prefix - suffix, revised.size() - prefix - suffix);
        }

        /** Lines only added or only removed need no search, so only a part with both can be too large. */
        boolean tooLarge() {
            return removed > 0 && added > 0 && (removed > MAX_CHANGED_LINES || added > MAX_CHANGED_LINES);
        }

        /** The patch of the whole texts, its deltas found in the changed part alone. */
        Patch<String> patch() {
            List<String> from = original.subList(prefix, prefix + removed);
            List<String> to = revised.subList(prefix, prefix + added);
            Patch<String> patch = new Patch<>();
            if (from.isEmpty() && to.isEmpty()) {
                return patch;
            }
            if (from.isEmpty() || to.isEmpty()) {
                // Lines only added or only removed: one delta, and no search, however many they are.
                Chunk<String> source = new Chunk<>(prefix, from);
                Chunk<String> target = new Chunk<>(prefix, to);
                patch.addDelta(from.isEmpty() ? new InsertDelta<>(source, target) : new DeleteDelta<>(source, target));
                return patch;
            }
            for (AbstractDelta<String> delta : DiffUtils.diff(from, to).getDeltas()) {
                patch.addDelta(delta.withChunks(
                        new Chunk<>(
                                delta.getSource().getPosition() + prefix,
                                delta.getSource().getLines()),
                        new Chunk<>(
                                delta.getTarget().getPosition() + prefix,
                                delta.getTarget().getLines())));
            }
            return patch;
        }
    }
}
