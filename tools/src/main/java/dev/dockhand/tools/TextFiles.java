package dev.dockhand.tools;

import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What the file tools need to know about a file's bytes before treating it as text. */
final class TextFiles {
    private static final int SNIFF_BYTES = 8192;

    private TextFiles() {}

    /**
     * Appends {@code number} right-aligned in six columns and a tab, as {@code cat -n} does: the prefix of every line
     * the model reads. Written out by hand because {@code String.format} per line is most of a large read's cost.
     */
    static StringBuilder lineNumber(StringBuilder text, long number) {
        String digits = Long.toString(number);
        for (int pad = digits.length(); pad < 6; pad++) {
            text.append(' ');
        }
        return text.append(digits).append('\t');
    }

    /**
     * The first 8 KiB of a file, read from its start, with the channel put back at the start: enough to tell text from
     * binary before reading the rest through the same open file.
     */
    static byte[] head(SeekableByteChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(SNIFF_BYTES);
        channel.position(0);
        int read = 0;
        while (head.hasRemaining() && read >= 0) {
            read = channel.read(head);
        }
        channel.position(0);
        return Arrays.copyOf(head.array(), head.position());
    }

    /** A file is treated as binary when its first 8 KiB hold a NUL byte, as git and grep decide. */
    static boolean isBinary(byte[] head) {
        return isBinary(head, head.length);
    }

    /** {@link #isBinary(byte[])} of the first {@code length} bytes of {@code bytes}, up to 8 KiB. */
    static boolean isBinary(byte[] bytes, int length) {
        for (int i = 0; i < Math.min(length, SNIFF_BYTES); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The offset of the first byte of {@code bytes} that is not part of well-formed UTF-8; -1 when there is none. A
     * file with such bytes (Latin-1, Windows-1252) decodes only with replacement characters, and written back would
     * lose them: every {@code é} of an untouched line would become EF BF BD.
     */
    static int firstNonUtf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(SNIFF_BYTES);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isError()) {
                return in.position();
            }
            if (result.isUnderflow()) {
                return decoder.flush(out).isError() ? in.position() : -1;
            }
            out.clear();
        }
    }

    /** A file's text, decoded as UTF-8; empty when it is binary. */
    static Optional<String> text(WorkspaceFile file) throws IOException {
        try (SeekableByteChannel channel = file.open()) {
            if (isBinary(head(channel))) {
                return Optional.empty();
            }
            return Optional.of(new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /**
     * The kind of a binary file from its first bytes, for a refusal the model can act on; empty when unknown. Read
     * from the bytes, not from the system's MIME database, so the answer is the same on every machine.
     */
    static String binaryKind(byte[] head) {
        String ascii = new String(head, 0, Math.min(head.length, 12), StandardCharsets.ISO_8859_1);
        if (ascii.startsWith("\u0089PNG")) {
            return "PNG image";
        }
        if (ascii.startsWith("\u00ff\u00d8\u00ff")) {
            return "JPEG image";
        }
        if (ascii.startsWith("GIF8")) {
            return "GIF image";
        }
        if (ascii.startsWith("RIFF") && ascii.length() >= 12 && ascii.startsWith("WEBP", 8)) {
            return "WebP image";
        }
        if (ascii.startsWith("%PDF")) {
            return "PDF document";
        }
        if (ascii.startsWith("PK\u0003\u0004")) {
            return "zip archive (also jar, docx)";
        }
        if (ascii.startsWith("\u001f\u008b")) {
            return "gzip archive";
        }
        if (ascii.startsWith("\u007fELF")) {
            return "ELF executable";
        }
        if (ascii.startsWith("\u00ca\u00fe\u00ba\u00be")) {
            return "Java class file";
        }
        return "";
    }

    /** The line separator a text uses: CRLF when its first line break is one, LF otherwise. */
    static String lineSeparatorOf(String text) {
        int newline = text.indexOf('\n');
        return newline > 0 && text.charAt(newline - 1) == '\r' ? "\r\n" : "\n";
    }

    /** Human-readable size: 532 B, 12.4 KB, 3.1 MB. */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }
}
