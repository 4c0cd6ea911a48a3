package dev.dockhand.core.output;

import dev.dockhand.core.Utf16;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Collects a tool's output line by line and keeps what the model sees within {@link OutputLimits}. While the output
 * fits, it is all kept. Once it does not, every line goes to a file as it comes, and memory holds only a head (about
 * a fifth of the budget) and a rolling tail (the rest), so a command printing gigabytes costs a few MB of heap. The
 * text then joins head and tail with a marker naming the lines left out and the file holding everything.
 *
 * <p>When the file cannot be written (the folder is not writable, the disk is full, the name is too long), the head
 * and tail are kept all the same and the marker says that the rest could not be kept, and why: never a silent cut.
 *
 * <p>The file stops at {@link #MAX_SAVED_BYTES}: a command printing for ten minutes must not fill the disk under the
 * user's home folder, outside the sandbox. Its last line then says where it stopped, and the marker that the file
 * holds only the first lines; the tail still reaches the model.
 */
public final class TruncatedOutput implements AutoCloseable {
    /** How much of one output its file keeps, in bytes of UTF-8: 64 MiB, about a million lines of a build log. */
    public static final long MAX_SAVED_BYTES = 64L << 20;

    private final OutputLimits limits;
    private final Opener opener;
    private final Consumer<String> onLost;
    private final long maxSavedBytes;
    private final List<String> head = new ArrayList<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private long headChars;
    private long tailChars;
    private long totalLines;
    private boolean over;
    private Path spillFile;
    private BufferedWriter spill;
    private String lost;
    private long savedBytes;
    private long savedLines;
    private boolean capped;

    /** Where the whole output goes once it outgrows the limits: a file just created, and a writer on it. */
    record Spill(Path file, BufferedWriter writer) {}

    /** Creates the spill file when it is first needed. */
    @FunctionalInterface
    interface Opener {
        Spill open() throws IOException;
    }

    /**
     * @param spillFile where the whole output goes if it outgrows the limits; created only then. Tools get theirs
     *     from {@link OutputFiles}, which names the file itself.
     */
    public TruncatedOutput(OutputLimits limits, Path spillFile) {
        this(
                limits,
                () -> {
                    Files.createDirectories(spillFile.getParent());
                    return new Spill(spillFile, Files.newBufferedWriter(spillFile, StandardCharsets.UTF_8));
                },
                reason -> {},
                MAX_SAVED_BYTES);
    }

    TruncatedOutput(OutputLimits limits, Opener opener, Consumer<String> onLost, long maxSavedBytes) {
        this.limits = limits;
        this.opener = opener;
        this.onLost = onLost;
        this.maxSavedBytes = maxSavedBytes;
    }

    public synchronized void appendLine(String line) {
        totalLines++;
        if (!over) {
            head.add(line);
            headChars += line.length() + 1;
            if (headChars > limits.maxChars() || head.size() > limits.maxLines()) {
                startSpilling();
            }
            return;
        }
        write(line);
        addToTail(line);
    }

    /** Whether the output outgrew the limits (and so was cut to a head and a tail). */
    public synchronized boolean truncated() {
        return over;
    }

    /** The file holding the whole output, when it was truncated and the file could be written. */
    public synchronized Optional<Path> fullOutput() {
        return over && lost == null ? Optional.of(spillFile) : Optional.empty();
    }

    /** Why the whole output could not be kept, when it was cut and its file could not be written. */
    public synchronized Optional<String> lost() {
        return Optional.ofNullable(lost);
    }

    public synchronized long totalLines() {
        return totalLines;
    }

    /** The text for the model: everything, or head + marker + tail. */
    public synchronized String text() {
        if (!over) {
            return String.join("\n", head);
        }
        flushSpill();
        long omitted = totalLines - head.size() - tail.size();
        StringBuilder text = new StringBuilder();
        head.forEach(line -> text.append(line).append('\n'));
        text.append("\n[... ").append(omitted);
        if (lost == null && capped) {
            text.append(" lines omitted. The first ")
                    .append(savedLines)
                    .append(" lines of the output (")
                    .append(totalLines)
                    .append(" lines in all) are in ")
                    .append(spillFile)
                    .append("; the file stops there, at ")
                    .append(maxSavedBytes >> 20)
                    .append(" MB, and the last lines are below. Read it with read_file and an offset, or run the")
                    .append(" command again with less output (a filter, a narrower search) ...]\n\n");
        } else if (lost == null) {
            text.append(" lines omitted. The whole output (")
                    .append(totalLines)
                    .append(" lines) is in ")
                    .append(spillFile)
                    .append("; read it with read_file and an offset to see the rest ...]\n\n");
        } else {
            text.append(" lines omitted. The rest of the output (")
                    .append(totalLines)
                    .append(" lines in all) could not be kept: ")
                    .append(lost)
                    .append(". Only these first and last lines remain; run it again with less output (a filter,")
                    .append(" a narrower search) to see more ...]\n\n");
        }
        text.append(String.join("\n", tail));
        return text.toString();
    }

    /** Moves everything but the head budget to the tail and opens the spill file with all lines so far. */
    private void startSpilling() {
        over = true;
        try {
            Spill opened = opener.open();
            spillFile = opened.file();
            spill = opened.writer();
        } catch (IOException | RuntimeException e) {
            lose(e);
        }
        head.forEach(this::write);
        List<String> all = new ArrayList<>(head);
        head.clear();
        headChars = 0;
        long headBudgetChars = limits.maxChars() / 5;
        int headBudgetLines = limits.maxLines() / 5;
        int i = 0;
        while (i < all.size()
                && head.size() < headBudgetLines
                && headChars + all.get(i).length() + 1 <= headBudgetChars) {
            head.add(all.get(i));
            headChars += all.get(i).length() + 1;
            i++;
        }
        for (; i < all.size(); i++) {
            addToTail(all.get(i));
        }
    }

    private void addToTail(String line) {
        tail.addLast(line);
        tailChars += line.length() + 1;
        long budgetChars = limits.maxChars() - limits.maxChars() / 5;
        int budgetLines = limits.maxLines() - limits.maxLines() / 5;
        while (tail.size() > 1 && (tailChars > budgetChars || tail.size() > budgetLines)) {
            tailChars -= tail.removeFirst().length() + 1;
        }
        if (tailChars > budgetChars) {
            // One line alone is over the budget: keep its end, which is what usually matters (the error).
            String only = tail.removeFirst();
            int keep = (int) budgetChars - 12;
            String cut = "[line cut] " + Utf16.tail(only, Math.max(0, keep));
            tail.addLast(cut);
            tailChars = cut.length() + 1;
        }
    }

    private void write(String line) {
        if (spill == null || capped) {
            return;
        }
        try {
            long bytes = utf8Length(line) + 1;
            if (savedBytes + bytes > maxSavedBytes) {
                capped = true;
                spill.write("[Dockhand saved no more of this output: it passed " + (maxSavedBytes >> 20)
                        + " MB here. Its last lines are in the tool's result.]\n");
                return;
            }
            spill.write(line);
            spill.write('\n');
            savedBytes += bytes;
            savedLines++;
        } catch (IOException e) {
            lose(e);
        }
    }

    /** The length of {@code line} in UTF-8, as the spill file's writer encodes it (a lone surrogate as one byte). */
    private static long utf8Length(String line) {
        long bytes = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < line.length()
                    && Character.isLowSurrogate(line.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private void flushSpill() {
        if (spill == null) {
            return;
        }
        try {
            spill.flush();
        } catch (IOException e) {
            lose(e);
        }
    }

    /**
     * The file cannot hold the whole output: the part written is deleted (a copy that looks whole but is not would
     * mislead whoever reads it), and head and tail go on in memory.
     */
    private void lose(Exception e) {
        lost = e instanceof IOException io ? OutputFiles.reason(io) : String.valueOf(e.getMessage());
        if (spill != null) {
            try {
                spill.close();
            } catch (IOException alsoFailed) {
                // Already lost; the first reason is the one worth telling.
            }
            spill = null;
        }
        if (spillFile != null) {
            try {
                Files.deleteIfExists(spillFile);
            } catch (IOException cannotDelete) {
                // The disk refuses: nothing more to do; the marker already says the copy is not whole.
            }
        }
        onLost.accept(lost);
    }

    @Override
    public synchronized void close() {
        if (spill != null) {
            try {
                spill.close();
            } catch (IOException e) {
                lose(e);
            }
            spill = null;
        }
    }
}
