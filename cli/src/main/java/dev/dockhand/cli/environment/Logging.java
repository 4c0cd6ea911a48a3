package dev.dockhand.cli.environment;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * Sends every log record (ours through SLF4J, okhttp's through java.util.logging) to a rotating file under
 * {@code ~/.dockhand/logs}, and none to the terminal. Nothing is set up at start: {@link #toFileUnder} only names
 * {@link Config} as JUL's configuration, so whichever thread first touches logging configures it (with no console
 * handler, ever), and the file itself is opened with the first record. Most runs log nothing, and JUL's set-up and
 * the file's locks would otherwise cost tens of milliseconds of every {@code -p} call.
 */
public final class Logging {
    private static final String FOLDER_PROPERTY = "dockhand.logs";
    private static final int MAX_FILE_BYTES = 5 * 1024 * 1024;
    private static final int FILES_KEPT = 3;

    private Logging() {}

    public static void toFileUnder(Path home) {
        System.setProperty(FOLDER_PROPERTY, home.resolve("logs").toString());
        System.setProperty("java.util.logging.config.class", Config.class.getName());
    }

    /** JUL's configuration, instantiated by the LogManager when it starts: INFO and above to the lazy file. */
    public static final class Config {
        public Config() throws IOException {
            String properties = "handlers=" + LazyFileHandler.class.getName() + "\n.level=INFO\n";
            LogManager.getLogManager()
                    .readConfiguration(new ByteArrayInputStream(properties.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** Opens the rotating file on the first record it is given. */
    public static final class LazyFileHandler extends Handler {
        private Handler file;
        private boolean failed;

        @Override
        public synchronized void publish(LogRecord record) {
            if (!isLoggable(record)) {
                return;
            }
            if (file == null && !failed) {
                open();
            }
            if (file != null) {
                file.publish(record);
            }
        }

        private void open() {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
            try {
                Path folder = Path.of(System.getProperty(FOLDER_PROPERTY));
                DockhandHome.createPrivate(folder);
                FileHandler handler =
                        new FileHandler(folder.resolve("dockhand-%g.log").toString(), MAX_FILE_BYTES, FILES_KEPT, true);
                handler.setFormatter(new SimpleFormatter());
                file = handler;
                ownerOnly(folder);
            } catch (IOException | RuntimeException e) {
                // No log file is no reason to fail the user's run; records are dropped instead of shown.
                failed = true;
            }
        }

        /** The log files are owner-only: records may quote what tools read. */
        private static void ownerOnly(Path folder) throws IOException {
            if (!folder.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return;
            }
            try (java.util.stream.Stream<Path> files = Files.list(folder)) {
                for (Path log : files.filter(f -> f.getFileName().toString().startsWith("dockhand-"))
                        .toList()) {
                    Files.setPosixFilePermissions(
                            log, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
                }
            }
        }

        @Override
        public synchronized void flush() {
            if (file != null) {
                file.flush();
            }
        }

        @Override
        public synchronized void close() {
            if (file != null) {
                file.close();
            }
        }
    }
}
