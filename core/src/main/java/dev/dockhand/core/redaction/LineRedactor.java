package dev.dockhand.core.redaction;

import dev.dockhand.core.Utf16;
import dev.dockhand.core.tool.OutputSink;
import java.util.ArrayList;
import java.util.List;

/**
 * Redacts the lines a running tool streams before they are shown or recorded, holding back only what a secret split
 * across lines may need: a private key block until its END line (at most {@link #BLOCK_CHARS}), and the last
 * {@link #CARRY} characters of a line so long that the sandbox passed it on in pieces, joined to the next piece. Memory
 * stays bounded by those two, however long the output. One per call; lines from several threads are taken one at a time.
 */
public final class LineRedactor implements OutputSink {
    /** Lines at least this long may be pieces of a longer one (the sandbox cuts lines at 64 KiB). */
    static final int LONG_LINE = 8192;

    static final int CARRY = 1024;
    static final int BLOCK_CHARS = 64 * 1024;
    private static final int BLOCK_LINES = 200;

    private final Redactor redactor;
    private final OutputSink sink;
    private String carry = "";
    private List<String> block;
    private int blockChars;

    LineRedactor(Redactor redactor, OutputSink sink) {
        this.redactor = redactor;
        this.sink = sink;
    }

    @Override
    public synchronized void line(String line) {
        if (!redactor.enabled()) {
            sink.line(line);
            return;
        }
        if (block != null) {
            block.add(line);
            blockChars += line.length() + 1;
            if (line.contains("-----END") || blockChars > BLOCK_CHARS || block.size() > BLOCK_LINES) {
                flushBlock();
            }
            return;
        }
        String text = carry + line;
        carry = "";
        if (opensKeyBlock(text)) {
            block = new ArrayList<>();
            block.add(text);
            blockChars = text.length();
            return;
        }
        if (line.length() < LONG_LINE) {
            sink.line(redactor.redact(text).text());
            return;
        }
        List<SecretScanner.Finding> findings = redactor.find(text);
        int cut = Utf16.boundary(text, text.length() - CARRY);
        for (SecretScanner.Finding finding : findings) {
            if (finding.start() < cut && cut < finding.end()) {
                cut = finding.start();
            }
        }
        List<SecretScanner.Finding> before = new ArrayList<>();
        for (SecretScanner.Finding finding : findings) {
            if (finding.end() <= cut) {
                before.add(finding);
            }
        }
        carry = text.substring(cut);
        sink.line(redactor.apply(text.substring(0, cut), before).text());
    }

    /** Passes on what is held back; call once the tool has finished. */
    public synchronized void finish() {
        if (block != null) {
            flushBlock();
        }
        if (!carry.isEmpty()) {
            String rest = carry;
            carry = "";
            sink.line(redactor.redact(rest).text());
        }
    }

    /** How many characters are held back now, for the tests of its bound. */
    synchronized int heldBack() {
        return carry.length() + blockChars;
    }

    private static boolean opensKeyBlock(String text) {
        int begin = text.indexOf("-----BEGIN");
        return begin >= 0 && text.indexOf("PRIVATE KEY", begin) >= 0 && text.indexOf("-----END", begin + 10) < 0;
    }

    private void flushBlock() {
        String joined = String.join("\n", block);
        block = null;
        blockChars = 0;
        redactor.redact(joined).text().lines().forEach(sink::line);
    }
}
