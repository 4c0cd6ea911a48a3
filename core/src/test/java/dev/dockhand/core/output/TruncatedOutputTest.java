package dev.dockhand.core.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TruncatedOutputTest {
    @TempDir
    Path temp;

    @Test
    void keepsSmallOutputWholeAndWritesNoFile() {
        Path spill = temp.resolve("out/c1.txt");
        try (TruncatedOutput output = new TruncatedOutput(new OutputLimits(1000, 100), spill)) {
            output.appendLine("one");
            output.appendLine("two");

            assertEquals("one\ntwo", output.text());
            assertFalse(output.truncated());
            assertEquals(Optional.empty(), output.fullOutput());
        }
        assertFalse(Files.exists(spill));
    }

    @Test
    void cutsToHeadAndTailAndKeepsEverythingInTheFile() throws Exception {
        Path spill = temp.resolve("out/c2.txt");
        String text;
        try (TruncatedOutput output = new TruncatedOutput(new OutputLimits(1000, 50), spill)) {
            for (int i = 1; i <= 200; i++) {
                output.appendLine("line " + i);
            }
            text = output.text();
        }

        List<String> lines = text.lines().toList();
        assertEquals(
                List.of(
                        "line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9",
                        "line 10"),
                lines.subList(0, 10));
        assertEquals(
                "[... 150 lines omitted. The whole output (200 lines) is in " + spill
                        + "; read it with read_file and an offset to see the rest ...]",
                lines.get(11));
        assertEquals("line 161", lines.get(13));
        assertEquals("line 200", lines.get(lines.size() - 1));
        assertEquals(200, Files.readAllLines(spill).size());
        assertEquals("line 137", Files.readAllLines(spill).get(136));
    }

    @Test
    void theFileStopsAtItsLimitSaysSoAndTheModelStillGetsTheLastLines() throws Exception {
        Path spill = temp.resolve("out/c5.txt");
        String text;
        try (TruncatedOutput output = new TruncatedOutput(
                new OutputLimits(10_000, 50),
                () -> new TruncatedOutput.Spill(
                        spill,
                        Files.newBufferedWriter(
                                Files.createDirectories(temp.resolve("out")).resolve("c5.txt"))),
                reason -> {},
                1 << 20)) {
            for (int i = 1; i <= 2000; i++) {
                output.appendLine(String.format("%-999s", "line " + i));
            }
            text = output.text();
        }

        // 1,000 characters a line with its end: 1,048 whole lines fit in 1 Mi characters.
        List<String> saved = Files.readAllLines(spill);
        assertEquals(1049, saved.size());
        assertEquals("line 1048", saved.get(1047).strip());
        assertEquals(
                "[Dockhand saved no more of this output: it passed 1 MB here. Its last lines are in the tool's result.]",
                saved.get(1048));
        List<String> lines = text.lines().toList();
        assertEquals(
                "[... 1990 lines omitted. The first 1048 lines of the output (2000 lines in all) are in " + spill
                        + "; the file stops there, at 1 MB, and the last lines are below. Read it with read_file and"
                        + " an offset, or run the command again with less output (a filter, a narrower search) ...]",
                lines.get(3));
        assertEquals("line 2000", lines.get(lines.size() - 1).strip());
    }

    @Test
    void theFilesLimitCountsBytesSoLettersOfTwoBytesFillItTwiceAsFast() throws Exception {
        Path spill = temp.resolve("out/c6.txt");
        try (TruncatedOutput output = new TruncatedOutput(
                new OutputLimits(10_000, 50),
                () -> new TruncatedOutput.Spill(
                        spill,
                        Files.newBufferedWriter(
                                Files.createDirectories(spill.getParent()).resolve(spill.getFileName()))),
                reason -> {},
                1 << 20)) {
            for (int i = 0; i < 2000; i++) {
                output.appendLine("é".repeat(500));
            }
        }

        // 500 two-byte letters and an end: 1,001 bytes a line, 1,047 whole lines in 1 MiB.
        List<String> saved = Files.readAllLines(spill);
        assertEquals(1048, saved.size());
        assertEquals(1047 * 1001 + saved.get(1047).length() + 1, Files.size(spill));
    }

    @Test
    void holdsOnlyTheBudgetInMemoryForHugeOutput() {
        Path spill = temp.resolve("out/c3.txt");
        try (TruncatedOutput output = new TruncatedOutput(new OutputLimits(3000, 100), spill)) {
            String line = "x".repeat(100);
            for (int i = 0; i < 100_000; i++) {
                output.appendLine(line);
            }
            assertTrue(
                    output.text().length() <= 3000 + 300,
                    "text is " + output.text().length() + " chars");
            assertEquals(100_000, output.totalLines());
        }
        assertEquals(100_000L * 101, spill.toFile().length());
    }

    @Test
    void keepsTheEndOfOneHugeLine() {
        try (TruncatedOutput output = new TruncatedOutput(new OutputLimits(1000, 100), temp.resolve("c4.txt"))) {
            output.appendLine("a".repeat(5000) + "THE END");

            String text = output.text();
            assertTrue(text.endsWith("THE END"), text);
            assertTrue(text.length() < 1200, "length " + text.length());
        }
    }

    @Test
    void theEndOfOneHugeLineStartsAfterAnEmojiTheCutWouldSplit() {
        try (TruncatedOutput output = new TruncatedOutput(new OutputLimits(1000, 100), temp.resolve("c5.txt"))) {
            // The tail keeps the line's last 788 chars (four fifths of the budget, less the marker), which would
            // begin with the second half of U+1F600.
            output.appendLine("a".repeat(5000) + "\uD83D\uDE00" + "b".repeat(787));

            String text = output.text();
            assertEquals("[line cut] " + "b".repeat(787), text.substring(text.lastIndexOf('\n') + 1));
        }
    }
}
