package dev.dockhand.cli.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoggingTest {
    @TempDir
    Path temp;

    @Test
    void theLogFileAndItsFolderAreOwnerOnly() throws Exception {
        Path folder = temp.resolve("home/logs");
        String before = System.getProperty("dockhand.logs");
        System.setProperty("dockhand.logs", folder.toString());
        Logging.LazyFileHandler handler = new Logging.LazyFileHandler();
        try {
            handler.publish(new LogRecord(Level.WARNING, "a tool read a secret"));
            handler.flush();
        } finally {
            handler.close();
            if (before == null) {
                System.clearProperty("dockhand.logs");
            } else {
                System.setProperty("dockhand.logs", before);
            }
        }

        List<String> modes;
        try (Stream<Path> files = Files.list(folder)) {
            modes = files.filter(file -> file.getFileName().toString().endsWith(".log"))
                    .map(file -> mode(file))
                    .toList();
        }
        assertEquals(List.of("rwx------", "rw-------"), List.of(mode(folder), modes.get(0)));
    }

    private static String mode(Path path) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
