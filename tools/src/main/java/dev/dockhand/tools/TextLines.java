package dev.dockhand.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a text file's lines as grep and ripgrep number them: a line ends at each {@code \n}, a {@code \r} before it
 * is not part of the line, and a last line without {@code \n} counts when it is not empty. The file is read in blocks
 * of whole lines, each decoded as UTF-8 in one step (a {@code \n} byte is never part of a longer UTF-8 sequence, so a
 * block can end after any of them), and each line is handed over as a range of the block's text: a search runs its
 * matcher over the range and makes a string only of the lines it keeps. Memory stays at a block, or at the longest
 * line when that is longer.
 */
final class TextLines {
    private static final int BLOCK_BYTES = 256 * 1024;

    private TextLines() {}

    /** Receives each line: {@code text} from {@code start} (inclusive) to {@code end} (exclusive); false to stop. */
    @FunctionalInterface
    interface LineVisitor {
        boolean line(String text, int start, int end, long number);
    }

    /**
     * Reads {@code channel} from its current position; returns false, having passed no line, when its first 8 KiB hold
     * a NUL byte (a binary file, as {@link TextFiles#isBinary} decides).
     */
    static boolean read(SeekableByteChannel channel, LineVisitor visitor) throws IOException {
        // Most files are far smaller than a block: one byte more than the file, so the first read finds its end.
        long left = Math.max(channel.size() - channel.position(), 0);
        byte[] block = new byte[(int) Math.min(BLOCK_BYTES, left + 1)];
        int filled = fill(channel, block, 0);
        if (TextFiles.isBinary(block, filled)) {
            return false;
        }
        long number = 0;
        boolean end = filled < block.length;
        while (filled > 0) {
            int last = lastNewline(block, filled);
            if (last < 0 && !end) {
                // One line longer than the block: a bigger block holds it.
                block = Arrays.copyOf(block, block.length * 2);
                filled = fill(channel, block, filled);
                end = filled < block.length;
                continue;
            }
            int used = last < 0 ? filled : last + 1;
            String text = new String(block, 0, used, StandardCharsets.UTF_8);
            int start = 0;
            while (start < text.length()) {
                int newline = text.indexOf('\n', start);
                int next = newline < 0 ? text.length() : newline + 1;
                int stop = newline < 0 ? text.length() : newline;
                if (stop > start && text.charAt(stop - 1) == '\r') {
                    stop--;
                }
                if (!visitor.line(text, start, stop, ++number)) {
                    return true;
                }
                start = next;
            }
            System.arraycopy(block, used, block, 0, filled - used);
            filled -= used;
            if (!end) {
                filled = fill(channel, block, filled);
                end = filled < block.length;
            }
        }
        return true;
    }

    /** Reads into {@code block} from {@code from} until it is full or the file ends; returns how much it holds. */
    private static int fill(SeekableByteChannel channel, byte[] block, int from) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(block, from, block.length - from);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
            // Reads until full or at the end.
        }
        return buffer.position();
    }

    private static int lastNewline(byte[] block, int filled) {
        for (int i = filled - 1; i >= 0; i--) {
            if (block[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
