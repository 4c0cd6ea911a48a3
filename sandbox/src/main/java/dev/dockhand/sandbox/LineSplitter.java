package dev.dockhand.sandbox;

import dev.dockhand.core.tool.OutputSink;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Cuts one byte stream into UTF-8 lines for an {@link OutputSink}; stdout and stderr each get their own, so a
 * partial line of one never absorbs the other's output. A line longer than {@link #MAX_LINE_BYTES} is passed on
 * in pieces, so one endless line cannot fill the heap; each piece ends between whole characters, so a cut never turns
 * one character into two U+FFFD.
 */
final class LineSplitter extends OutputStream {
    static final int MAX_LINE_BYTES = 64 * 1024;

    /** The splitters of one command's stdout and stderr, delivering whole lines to one sink, one at a time. */
    record Pair(LineSplitter stdout, LineSplitter stderr) {}

    static Pair pair(OutputSink output) {
        Object lock = new Object();
        OutputSink serialized = line -> {
            synchronized (lock) {
                output.line(line);
            }
        };
        return new Pair(new LineSplitter(serialized), new LineSplitter(serialized));
    }

    private final OutputSink sink;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineSplitter(OutputSink sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            emit();
            return;
        }
        line.write(b);
        if (line.size() >= MAX_LINE_BYTES) {
            emitPiece();
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (bytes[i] == '\n') {
                line.write(bytes, start, i - start);
                emit();
                start = i + 1;
            } else if (line.size() + (i - start) >= MAX_LINE_BYTES) {
                line.write(bytes, start, i - start);
                emitPiece();
                start = i;
            }
        }
        line.write(bytes, start, end - start);
    }

    /** Passes on a last line that had no newline. */
    @Override
    public synchronized void flush() {
        if (line.size() > 0) {
            emit();
        }
    }

    @Override
    public void close() {
        flush();
    }

    private void emit() {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        sink.line(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
    }

    /** Passes on a piece of an over-long line, keeping back the start of a character its next bytes finish. */
    private void emitPiece() {
        byte[] bytes = line.toByteArray();
        int kept = unfinishedTail(bytes);
        line.reset();
        sink.line(new String(bytes, 0, bytes.length - kept, StandardCharsets.UTF_8));
        line.write(bytes, bytes.length - kept, kept);
    }

    /** How many bytes at the end begin a UTF-8 character whose remaining bytes have not come yet (0 to 3). */
    static int unfinishedTail(byte[] bytes) {
        for (int back = 1; back <= Math.min(3, bytes.length); back++) {
            int b = bytes[bytes.length - back] & 0xFF;
            if ((b & 0xC0) == 0x80) {
                continue;
            }
            int length = b >= 0xF8 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
            return length > back ? back : 0;
        }
        return 0;
    }
}
