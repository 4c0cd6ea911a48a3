package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Copying back never writes through a link, whatever the container says. */
class HostFilesTest {
    @TempDir
    Path root;

    @TempDir
    Path outside;

    @BeforeEach
    void realPaths() throws IOException {
        root = root.toRealPath();
        outside = outside.toRealPath();
    }

    private Optional<String> write(String path, String content) throws IOException {
        return HostFiles.write(
                root,
                path,
                new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)),
                null,
                0644,
                FileTime.fromMillis(0));
    }

    @Test
    void aCopyCutShortAtExitLeavesNoTemporaryFileAndTheTargetAsItWas() throws Exception {
        Files.writeString(root.resolve("build.log"), "the host's\n");
        CountDownLatch halfway = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        InputStream slow = new InputStream() {
            private boolean first = true;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (first) {
                    first = false;
                    buffer[offset] = 'x';
                    return 1;
                }
                halfway.countDown();
                try {
                    goOn.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return -1;
            }
        };
        CompletableFuture<Optional<String>> copy = CompletableFuture.supplyAsync(() -> {
            try {
                return HostFiles.write(root, "build.log", slow, null, 0644, FileTime.fromMillis(0));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        halfway.await();

        // What the exit's hook does while the copy-back, given up on, is still writing.
        HostFiles.removeUnfinished();
        goOn.countDown();

        assertEquals(
                NoSuchFileException.class,
                assertThrows(ExecutionException.class, copy::get)
                        .getCause()
                        .getCause()
                        .getClass());
        assertEquals(
                List.of("build.log"),
                Files.list(root).map(p -> p.getFileName().toString()).toList());
        assertEquals("the host's\n", Files.readString(root.resolve("build.log")));
    }

    @Test
    void aFileUnderAFolderThatIsALinkIsNotWritten() throws IOException {
        Files.createSymbolicLink(root.resolve("evil"), outside);

        Optional<String> refused = write("evil/authorized_keys", "ssh-ed25519 AAAA attacker\n");

        assertEquals(Optional.of("evil is a symbolic link"), refused);
        assertEquals(List.of(), Files.list(outside).toList());
    }

    @Test
    void aLinkStandingAtTheNameIsReplacedNotWrittenThrough() throws IOException {
        Path target = outside.resolve("bashrc");
        Files.writeString(target, "original\n");
        Files.createSymbolicLink(root.resolve("notes.txt"), target);

        assertEquals(Optional.empty(), write("notes.txt", "copied back\n"));

        assertEquals("original\n", Files.readString(target));
        assertEquals("copied back\n", Files.readString(root.resolve("notes.txt"), StandardCharsets.UTF_8));
        assertEquals(false, Files.isSymbolicLink(root.resolve("notes.txt")));
    }

    @Test
    void aPathThatClimbsOutOfTheRootIsRefused() throws IOException {
        Optional<String> refused = write("../" + outside.getFileName() + "/x", "escaped\n");

        assertEquals(
                Optional.of("../" + outside.getFileName() + "/x is not a plain path inside the workspace"), refused);
        assertEquals(List.of(), Files.list(outside).toList());
    }

    @Test
    void aFolderTheContainerRemovedKeepsTheHostsOwnFiles() throws IOException {
        Files.createDirectories(root.resolve("gen/ignored"));
        Files.writeString(root.resolve("gen/ignored/local.env"), "KEY=1\n");
        Files.createDirectories(root.resolve("empty"));

        assertEquals(Optional.empty(), HostFiles.delete(root, "gen"));
        assertEquals(Optional.empty(), HostFiles.delete(root, "empty"));

        assertEquals("KEY=1\n", Files.readString(root.resolve("gen/ignored/local.env")));
        assertEquals(false, Files.exists(root.resolve("empty"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aFolderHoldingAFileIsNotReplacedByAFileAndKeepsWhatItHolds() throws IOException {
        Files.createDirectories(root.resolve("gen/cache"));
        Files.writeString(root.resolve("gen/cache/run.log"), "never copied in\n");

        assertThrows(DirectoryNotEmptyException.class, () -> write("gen", "the container's file\n"));

        assertEquals(
                List.of(List.of("gen", "gen/cache", "gen/cache/run.log"), "never copied in\n"),
                List.of(tree(), Files.readString(root.resolve("gen/cache/run.log"))));
    }

    @Test
    void aFolderHoldingOnlyFoldersIsReplacedByAFile() throws IOException {
        Files.createDirectories(root.resolve("gen/empty/deeper"));

        assertEquals(Optional.empty(), write("gen", "the container's file\n"));

        assertEquals(
                List.of(List.of("gen"), "the container's file\n"),
                List.of(tree(), Files.readString(root.resolve("gen"))));
    }

    @Test
    void aPathUnderAFileIsMissingNotAFailure() throws IOException {
        Files.writeString(root.resolve("gen"), "a file where a folder was\n");

        assertEquals(Optional.empty(), HostFiles.entry(root.resolve("gen/a.txt")));
    }

    /** Every path under the root, temporary files included, in order. */
    private List<String> tree() throws IOException {
        try (var walk = Files.walk(root)) {
            return walk.filter(path -> !path.equals(root))
                    .map(path -> HostFiles.relative(root, path))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void onlyWhatTheHostHasAsLastSyncedMayBeWrittenOver() throws IOException {
        Files.writeString(root.resolve("kept.txt"), "synced");
        Files.writeString(root.resolve("edited.txt"), "synced");
        Files.writeString(root.resolve("big.bin"), "0123456789");
        Files.createDirectories(root.resolve("plain"));
        Files.writeString(root.resolve("plain/a.txt"), "a");
        Files.createDirectories(root.resolve("mixed"));
        Files.writeString(root.resolve("mixed/a.txt"), "a");
        Files.writeString(root.resolve(".gitignore"), "*.log\n");
        Files.writeString(root.resolve("mixed/run.log"), "never copied in");
        Map<String, SyncEntry> synced = HostFiles.scan(root, new SyncIgnores(root), new SyncLimits(8, 1000))
                .entries();
        // The user edits a file while the command runs, and makes a new one.
        Files.writeString(root.resolve("edited.txt"), "edited on the host");
        Files.writeString(root.resolve("new-on-host.txt"), "mine");

        Map<String, Optional<String>> answers = new TreeMap<>();
        for (String path : List.of(
                "kept.txt", "edited.txt", "big.bin", "new-on-host.txt", "new-in-container.txt", "plain", "mixed")) {
            answers.put(path, HostFiles.conflict(root, path, synced));
        }

        assertEquals(
                new TreeMap<>(Map.of(
                        "kept.txt", Optional.empty(),
                        "edited.txt", Optional.of("changed on both sides"),
                        "big.bin", Optional.of("not synced"),
                        "new-on-host.txt", Optional.of("not synced"),
                        "new-in-container.txt", Optional.empty(),
                        "plain", Optional.empty(),
                        "mixed", Optional.of("the folder holds mixed/run.log, which was not synced"))),
                answers);
    }
}
