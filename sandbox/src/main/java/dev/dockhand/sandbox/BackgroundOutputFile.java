package dev.dockhand.sandbox;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/**
 * A background command's output file, which never holds more than {@code limit} bytes: a server or a {@code yes}
 * left running for a whole session must not fill the disk under the user's home folder, outside the sandbox. When the
 * next write would pass the limit the file is emptied and starts again with a line saying so, since for a command
 * still running its newest output is the one worth reading.
 */
final class BackgroundOutputFile extends OutputStream {
    /** 64 MiB: days of a dev server's log, a fraction of a second of {@code yes}. */
    static final long LIMIT = 64L << 20;

    private final FileChannel channel;
    private final long limit;
    private final Clock clock;
    private long size;

    private BackgroundOutputFile(FileChannel channel, long limit, Clock clock) {
        this.channel = channel;
        this.limit = limit;
        this.clock = clock;
    }

    /** Appends to {@code file}, which exists (created empty, owner-only, by {@link BackgroundJobs}). */
    static BackgroundOutputFile open(Path file, long limit, Clock clock) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        BackgroundOutputFile output = new BackgroundOutputFile(channel, limit, clock);
        output.size = channel.size();
        return output;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        if (size + length > limit) {
            channel.truncate(0);
            size = 0;
            String said = "[Dockhand emptied this file at "
                    + LocalTime.now(clock).truncatedTo(ChronoUnit.SECONDS)
                    + ": the command's output passed " + (limit >> 20) + " MB. What follows is newer.]\n";
            writeFully(ByteBuffer.wrap(said.getBytes(StandardCharsets.UTF_8)));
            // A single write larger than the whole limit keeps only its end.
            int keep = (int) Math.min(length, limit - size);
            offset += length - keep;
            length = keep;
        }
        writeFully(ByteBuffer.wrap(bytes, offset, length));
    }

    private void writeFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            size += channel.write(buffer);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
