package dev.dockhand.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.SimpleFormatter;

/**
 * Sends every log record (ours through SLF4J, okhttp's through java.util.logging) to a rotating file under
 * {@code ~/.dockhand/logs}, and none to the terminal: JUL's default console handler is removed first.
 */
final class Logging {
    private static final int MAX_FILE_BYTES = 5 * 1024 * 1024;
    private static final int FILES_KEPT = 3;

    private Logging() {}

    static void toFileUnder(Path home) {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
        LogManager.getLogManager().reset();
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.setLevel(Level.INFO);
        try {
            Path logs = home.resolve("logs");
            Files.createDirectories(logs);
            FileHandler file =
                    new FileHandler(logs.resolve("dockhand-%g.log").toString(), MAX_FILE_BYTES, FILES_KEPT, true);
            file.setFormatter(new SimpleFormatter());
            root.addHandler(file);
        } catch (IOException | SecurityException e) {
            // No log file is no reason to fail the user's run; records are dropped instead of shown.
        }
    }
}
