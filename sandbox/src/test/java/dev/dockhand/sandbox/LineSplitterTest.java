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
}
