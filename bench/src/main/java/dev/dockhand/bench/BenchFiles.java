package dev.dockhand.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * The temporary folders of a benchmark run. Each is removed when the run's JVM exits, however it ends (a failed
 * measurement, Ctrl-C), since a run can leave gigabytes behind (a session's saved outputs, an unpacked source tree);
 * a benchmark may remove one sooner with {@link #deleteTree}.
 */
final class BenchFiles {
    private static final List<Path> FOLDERS = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(BenchFiles::deleteAll, "bench-temporary-folders"));
    }

    private BenchFiles() {}

    /** A new temporary folder (its real path), removed at exit. */
    static Path temporaryFolder(String prefix) throws IOException {
        Path folder = Files.createTempDirectory(prefix).toRealPath();
        FOLDERS.add(folder);
        return folder;
    }

    /** Removes {@code root} and everything in it; nothing when it is gone already. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void deleteAll() {
        for (Path folder : FOLDERS) {
            try {
                deleteTree(folder);
            } catch (IOException e) {
                System.err.println("bench: could not remove " + folder + ": " + e);
            }
        }
    }
}
