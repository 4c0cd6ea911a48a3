package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lines as ripgrep numbers them, read in blocks: what grep's Java search and its check of ripgrep's lines see. */
class TextLinesTest {
    @TempDir
    Path temp;

    private List<String> lines(byte[] content) throws Exception {
        Path file = temp.resolve("file.txt");
        Files.write(file, content);
        List<String> lines = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file)) {
            assertTrue(TextLines.read(channel, (text, start, end, number) -> {
                lines.add(number + ":" + text.substring(start, end));
                return true;
            }));
        }
        return lines;
    }

    @Test
    void linesEndAtEachNewlineAndACarriageReturnBeforeOneIsLeftOut() throws Exception {
        assertEquals(
                List.of("1:a", "2:b\rc", "3:", "4:é last"),
                lines("a\r\nb\rc\n\n\u00e9 last".getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of(), lines(new byte[0]));
    }

    @Test
    void aLineLongerThanABlockArrivesWhole() throws Exception {
        String longLine = "x".repeat(600_000);

        assertEquals(List.of("1:" + longLine, "2:end"), lines((longLine + "\nend\n").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aVisitorThatStopsLeavesTheRestOfABigFileUnread() throws Exception {
        Path file = temp.resolve("big.txt");
        Files.writeString(file, "match\n" + "filler line\n".repeat(200_000));
        List<Long> seen = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file)) {
            TextLines.read(channel, (text, start, end, number) -> {
                seen.add(number);
                return false;
            });

            assertEquals(List.of(1L), seen);
            assertEquals(256 * 1024, channel.position());
        }
    }

    @Test
    void aFileWithANulByteNearItsStartIsBinaryAndGivesNoLines() throws Exception {
        Path file = temp.resolve("blob.bin");
        Files.write(file, new byte[] {'a', '\n', 0, 'b', '\n'});
        List<String> lines = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file)) {
            assertFalse(TextLines.read(channel, (text, start, end, number) -> lines.add(text)));
        }
        assertEquals(List.of(), lines);
    }
}
