package dev.dockhand.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Bytes written on one thread and read on another: an attached process's stdin (written by its client, read by
 * docker-java's copying thread) and its stdout and stderr (written by docker-java's frame callback, read by the
 * client). The JDK's piped streams do not fit: they fail a read with "write end dead" once the thread that last wrote
 * has ended, and these writers are pooled threads that come and go. A full pipe blocks its writer, so a client that
 * stops reading holds the process back instead of filling memory.
 */
final class BytePipe {
    private static final int CHUNKS = 256;
    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>(CHUNKS);
    private volatile boolean writerClosed;
    private volatile boolean readerClosed;

    private final OutputStream sink = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (writerClosed || readerClosed) {
                throw new IOException("the pipe is closed");
            }
            if (length == 0) {
                return;
            }
            try {
                chunks.put(Arrays.copyOfRange(bytes, offset, offset + length));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the pipe was full");
            }
        }

        @Override
        public void close() {
            closeWriter();
        }
    };

    private final InputStream source = new InputStream() {
        private byte[] current = END;
        private int position;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] bytes, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            while (position == current.length) {
                if (readerClosed) {
                    return -1;
                }
                byte[] next;
                try {
                    next = chunks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for the pipe");
                }
                if (next == END) {
                    // Put back for any later read (or another reader): the end stays the end.
                    chunks.offer(END);
                    return -1;
                }
                current = next;
                position = 0;
            }
            int count = Math.min(length, current.length - position);
            System.arraycopy(current, position, bytes, offset, count);
            position += count;
            return count;
        }

        @Override
        public int available() {
            return current.length - position;
        }

        @Override
        public void close() {
            readerClosed = true;
            // Frees a writer blocked on a full pipe; its next write fails.
            chunks.clear();
            chunks.offer(END);
        }
    };

    /** The end the bytes are written to; closing it is the end of the stream for the reader. */
    OutputStream sink() {
        return sink;
    }

    /** The end the bytes are read from. */
    InputStream source() {
        return source;
    }

    /** Ends the stream after what was written so far; a second call does nothing. */
    void closeWriter() {
        if (writerClosed) {
            return;
        }
        writerClosed = true;
        try {
            chunks.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // The reader is gone or the pipe is full of what it will never read: make room for the end.
            chunks.clear();
            chunks.offer(END);
        }
    }
}
