package dev.dockhand.tools.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a stream a process writes, each kept to at most a given number of bytes: a server that writes without
 * ever ending a line must not fill this JVM's memory, as {@link java.io.BufferedReader#readLine} would let it. The bytes
 * past the limit are counted and dropped as they come, up to the next newline, where reading goes on.
 */
final class BoundedLines {
    /** A line: its first bytes (at most the limit) as UTF-8 text, and how many bytes past them were dropped. */
    record Line(String text, long dropped) {
        boolean cut() {
            return dropped > 0;
        }
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int end;

    BoundedLines(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line without its {@code \n} (and a {@code \r} before it), or null at the end of the stream. */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long dropped = 0;
        boolean any = false;
        while (true) {
            if (position == end) {
                end = in.read(buffer);
                position = 0;
                if (end <= 0) {
                    end = 0;
                    return any ? line(line, dropped) : null;
                }
            }
            any = true;
            int start = position;
            while (position < end && buffer[position] != '\n') {
                position++;
            }
            int length = position - start;
            int room = maxBytes - line.size();
            int kept = Math.min(room, length);
            line.write(buffer, start, kept);
            dropped += length - kept;
            if (position < end) {
                position++;
                return line(line, dropped);
            }
        }
    }

    private static Line line(ByteArrayOutputStream bytes, long dropped) {
        String text = bytes.toString(StandardCharsets.UTF_8);
        if (dropped == 0 && text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        return new Line(text, dropped);
    }
}
