package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DiffsTest {
    /** Lines {@code from}..{@code to}, each {@code prefix} and its number. */
    private static String lines(String prefix, int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> prefix + i + "\n").collect(Collectors.joining());
    }

    @Test
    void aChangeInTheMiddleOfALongFileIsDiffedWithItsContextAndLineNumbers() {
        String before = lines("line ", 1, 100_000);
        String after = before.replace("line 50000\n", "changed\n");

        assertEquals(
                "--- a/big.txt\n+++ b/big.txt\n@@ -49997,7 +49997,7 @@\n line 49997\n line 49998\n line 49999\n"
                        + "-line 50000\n+changed\n line 50001\n line 50002\n line 50003\n",
                Diffs.unified("big.txt", before, after));
        assertEquals("+1 -1", Diffs.stat(before, after));
    }

    @Test
    void separateChangesInsideTheChangedPartAreSeparateHunks() {
        String before = lines("l", 1, 20);
        String after = before.replace("l2\n", "two\n").replace("l19\n", "nineteen\n");

        assertEquals(
                "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n l1\n-l2\n+two\n l3\n l4\n l5\n"
                        + "@@ -16,5 +16,5 @@\n l16\n l17\n l18\n-l19\n+nineteen\n l20\n",
                Diffs.unified("f", before, after));
        assertEquals("+2 -2", Diffs.stat(before, after));
    }

    @Test
    void aRewriteOfManyLinesIsOneLineSayingWhatItReplacesAndTakesNoTime() {
        // Diffed whole, this took 13 s, and four times as long for twice the lines.
        String before = "keep\n" + lines("old ", 1, 20_000) + "end\n";
        String after = "keep\n" + lines("new ", 1, 19_000) + "end\n";

        assertEquals(
                "(f.txt: replaces 20000 lines with 19000 lines from line 2; too many changed lines to show as a diff)\n",
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Diffs.unified("f.txt", before, after)));
        assertEquals(
                "+19000 -20000", assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Diffs.stat(before, after)));
    }

    @Test
    void aLargeNewFileIsDiffedInFullWithoutASearch() {
        String content = lines("x", 1, 50_000);

        String diff = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Diffs.unified("new.txt", "", content));

        assertEquals(
                "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,50000 @@\n" + content.replaceAll("(?m)^(?=.)", "+"), diff);
    }

    @Test
    void linesOnlyRemovedFromTheMiddleAreOneHunk() {
        String before = lines("l", 1, 10_000);
        String after = lines("l", 1, 3) + lines("l", 9_998, 10_000);

        String diff = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Diffs.unified("f", before, after));

        assertEquals(
                "--- a/f\n+++ b/f\n@@ -1,10000 +1,6 @@\n l1\n l2\n l3\n"
                        + lines("l", 4, 9_997).replaceAll("(?m)^(?=.)", "-") + " l9998\n l9999\n l10000\n",
                diff);
    }
}
