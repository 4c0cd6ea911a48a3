package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoundedLinesTest {
    @Test
    void linesPastTheLimitKeepTheirStartAndCountTheRest() throws IOException {
        assertEquals(
                List.of(
                        new BoundedLines.Line("abcd", 0),
                        new BoundedLines.Line("efgh", 6),
                        new BoundedLines.Line("", 0),
                        new BoundedLines.Line("cr", 0),
                        new BoundedLines.Line("last", 0)),
                read(new ByteArrayInputStream("abcd\nefghijklmn\n\ncr\r\nlast".getBytes(StandardCharsets.UTF_8)), 4));
    }

    @Test
    void aLineThatNeverEndsIsReadWithoutKeepingIt() throws IOException {
        // 64 MB with no newline: the reader holds only its limit of it, whatever the stream's length.
        long length = 64L * 1024 * 1024;
        InputStream endless = new InputStream() {
            private long left = length;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : -1;
            }

            @Override
            public int read(byte[] buffer, int offset, int count) {
                if (left <= 0) {
                    return -1;
                }
                int n = (int) Math.min(count, left);
                java.util.Arrays.fill(buffer, offset, offset + n, (byte) 'x');
                left -= n;
                return n;
            }
        };
        assertEquals(List.of(new BoundedLines.Line("xx", length - 2)), read(endless, 2));
    }

    private static List<BoundedLines.Line> read(InputStream in, int max) throws IOException {
        BoundedLines lines = new BoundedLines(in, max);
        List<BoundedLines.Line> all = new ArrayList<>();
        for (BoundedLines.Line line; (line = lines.next()) != null; ) {
            all.add(line);
        }
        return all;
    }
}
