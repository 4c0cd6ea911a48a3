package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplInputTest {
    @TempDir
    Path temp;

    @Test
    void theHistoryOfWhatTheUserTypedIsOwnerOnly() throws Exception {
        Path history = temp.resolve("home/history");
        try (Terminal terminal = TerminalBuilder.builder()
                .dumb(true)
                .streams(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream())
                .build()) {
            ReplInput.build(terminal, history, temp);
        }

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(history)));
    }
}
