package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineSplitterTest {
    private final List<String> lines = new ArrayList<>();
    private final LineSplitter splitter = new LineSplitter(lines::add);

    @Test
    void splitsOnNewlinesAcrossWritesAndDropsCarriageReturns() {
        byte[] bytes = "héllo\r\nwor".getBytes(StandardCharsets.UTF_8);
        splitter.write(bytes, 0, 3);
        splitter.write(bytes, 3, bytes.length - 3);
        splitter.write("ld\n".getBytes(StandardCharsets.UTF_8), 0, 3);
        splitter.write('x');
        splitter.flush();

        assertEquals(List.of("héllo", "world", "x"), lines);
    }

    @Test
    void passesOnAnEndlessLineInPieces() {
        byte[] big = "a".repeat(LineSplitter.MAX_LINE_BYTES * 2 + 5).getBytes(StandardCharsets.UTF_8);
        splitter.write(big, 0, big.length);
        splitter.flush();

        assertEquals(
                List.of(LineSplitter.MAX_LINE_BYTES, LineSplitter.MAX_LINE_BYTES, 5),
                lines.stream().map(String::length).toList());
    }

    @Test
    void cutsAnEndlessLineBetweenWholeCharacters() {
        String head = "a".repeat(LineSplitter.MAX_LINE_BYTES - 1);
        String tail = "é€😀".repeat(LineSplitter.MAX_LINE_BYTES / 9 + 1);
        byte[] bytes = (head + tail + "\n").getBytes(StandardCharsets.UTF_8);
        splitter.write(bytes, 0, bytes.length);

        assertEquals(head + tail, String.join("", lines));
        assertEquals(
                List.of(false, false, false),
                lines.stream().map(l -> l.contains("\uFFFD")).toList());
        assertEquals(List.of(head), lines.subList(0, 1));
    }

    @Test
    void cutsBetweenWholeCharactersWrittenOneByteAtATime() {
        String text = "b".repeat(LineSplitter.MAX_LINE_BYTES - 2) + "😀z";
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            splitter.write(b);
        }
        splitter.flush();

        assertEquals(List.of("b".repeat(LineSplitter.MAX_LINE_BYTES - 2), "😀z"), lines);
    }

    @Test
    void keepsBackOnlyACharacterTheNextBytesFinish() {
        assertEquals(0, LineSplitter.unfinishedTail("aé".getBytes(StandardCharsets.UTF_8)));
        assertEquals(1, LineSplitter.unfinishedTail(new byte[] {'a', (byte) 0xC3}));
        assertEquals(2, LineSplitter.unfinishedTail(new byte[] {'a', (byte) 0xE2, (byte) 0x82}));
        assertEquals(3, LineSplitter.unfinishedTail(new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}));
        // Bytes that are no UTF-8 are passed on as they are, to become U+FFFD: nothing waits for them.
        assertEquals(0, LineSplitter.unfinishedTail(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80}));
        assertEquals(0, LineSplitter.unfinishedTail(new byte[] {(byte) 0xFF}));
    }
}
