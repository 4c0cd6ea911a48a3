package dev.dockhand.sandbox;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An output that takes at most {@code limit} bytes into {@code target} and drops the rest, remembering that it did:
 * what an untrusted container sends back (a listing, an archive) is held in memory or a spool, and must not grow
 * without bound. The sender is not stopped by the drop; its reader asks {@link #exceeded()} afterwards.
 */
final class CappedOutput extends OutputStream {
    private final OutputStream target;
    private final long limit;
    private long written;
    private boolean exceeded;

    CappedOutput(OutputStream target, long limit) {
        this.target = target;
        this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        long room = limit - written;
        if (length > room) {
            exceeded = true;
            if (room > 0) {
                target.write(bytes, offset, (int) room);
                written = limit;
            }
            return;
        }
        target.write(bytes, offset, length);
        written += length;
    }

    boolean exceeded() {
        return exceeded;
    }

    @Override
    public void flush() throws IOException {
        target.flush();
    }

    @Override
    public void close() throws IOException {
        target.close();
    }
}
