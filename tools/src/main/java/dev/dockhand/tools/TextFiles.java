package dev.dockhand.tools;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the file tools need to know about a file's bytes before treating it as text. */
final class TextFiles {
    private static final int SNIFF_BYTES = 8192;

    private TextFiles() {}

    /** A file is treated as binary when its first 8 KiB hold a NUL byte, as git and grep decide. */
    static boolean isBinary(Path file) throws IOException {
        byte[] start = new byte[SNIFF_BYTES];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(start, 0, SNIFF_BYTES);
        }
        for (int i = 0; i < read; i++) {
            if (start[i] == 0) {
                return true;
            }
        }
        return false;
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
            return String.format("%.1f KB", bytes / 1024.0);
        }
        return String.format("%.1f MB", bytes / (1024.0 * 1024));
    }
}
