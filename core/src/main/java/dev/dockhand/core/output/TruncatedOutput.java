package dev.dockhand.core.output;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Collects a tool's output line by line and keeps what the model sees within {@link OutputLimits}. While the output
 * fits, it is all kept. Once it does not, every line goes to a file as it comes, and memory holds only a head (about
 * a fifth of the budget) and a rolling tail (the rest), so a command printing gigabytes costs a few MB of heap. The
 * text then joins head and tail with a marker naming the lines left out and the file holding everything.
 */
public final class TruncatedOutput implements AutoCloseable {
    private final OutputLimits limits;
    private final Path spillFile;
    private final List<String> head = new ArrayList<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private long headChars;
    private long tailChars;
    private long totalLines;
    private BufferedWriter spill;

    /** @param spillFile where the whole output goes if it outgrows the limits; created only then */
    public TruncatedOutput(OutputLimits limits, Path spillFile) {
        this.limits = limits;
        this.spillFile = spillFile;
    }

    public synchronized void appendLine(String line) {
        totalLines++;
        if (spill == null) {
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

    /** Whether the output outgrew the limits (and so was written to a file). */
    public synchronized boolean truncated() {
        return spill != null;
    }

    /** The file holding the whole output, when it was truncated. */
    public synchronized Optional<Path> fullOutput() {
        return spill == null ? Optional.empty() : Optional.of(spillFile);
    }

    public synchronized long totalLines() {
        return totalLines;
    }

    /** The text for the model: everything, or head + marker + tail. */
    public synchronized String text() {
        if (spill == null) {
            return String.join("\n", head);
        }
        flushSpill();
        long omitted = totalLines - head.size() - tail.size();
        StringBuilder text = new StringBuilder();
        head.forEach(line -> text.append(line).append('\n'));
        text.append("\n[... ")
                .append(omitted)
                .append(" lines omitted. The whole output (")
                .append(totalLines)
                .append(" lines) is in ")
                .append(spillFile)
                .append("; read it with read_file and an offset to see the rest ...]\n\n");
        text.append(String.join("\n", tail));
        return text.toString();
    }

    /** Moves everything but the head budget to the tail and opens the spill file with all lines so far. */
    private void startSpilling() {
        try {
            Files.createDirectories(spillFile.getParent());
            spill = Files.newBufferedWriter(spillFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the full tool output to " + spillFile, e);
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
            String cut = "[line cut] " + only.substring(Math.max(0, only.length() - keep));
            tail.addLast(cut);
            tailChars = cut.length() + 1;
        }
    }

    private void write(String line) {
        try {
            spill.write(line);
            spill.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the full tool output to " + spillFile, e);
        }
    }

    private void flushSpill() {
        try {
            spill.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        if (spill != null) {
            try {
                spill.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
