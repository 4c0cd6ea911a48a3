package dev.dockhand.cli.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SavedOutputsTest {
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    @TempDir
    Path temp;

    private Path folder(Path tmp, String name, Duration age, String... files) throws Exception {
        Path folder = Files.createDirectories(tmp.resolve(name));
        for (String file : files) {
            Path written = Files.writeString(
                    Files.createDirectories(folder.resolve(file).getParent())
                            .resolve(folder.resolve(file).getFileName()),
                    "saved");
            Files.setLastModifiedTime(written, FileTime.from(NOW.minus(age)));
            Files.setLastModifiedTime(written.getParent(), FileTime.from(NOW.minus(age)));
        }
        Files.setLastModifiedTime(folder, FileTime.from(NOW.minus(age)));
        return folder;
    }

    private static List<String> names(Path tmp) throws Exception {
        try (Stream<Path> listed = Files.list(tmp)) {
            return listed.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void foldersUnchangedForAWeekGoButTheSessionsOwnAndRecentOnesStay() throws Exception {
        Path tmp = Files.createDirectories(temp.resolve("home/tmp"));
        folder(tmp, "old", Duration.ofDays(8), "output-1-ab.txt");
        folder(tmp, "recent", Duration.ofDays(2), "output-1-cd.txt");
        Path own = folder(tmp, "own", Duration.ofDays(30), "output-1-ef.txt");

        SavedOutputs.prune(tmp, own, NOW);

        assertEquals(List.of("own", "recent"), names(tmp));
    }

    @Test
    void aFolderWhoseBackgroundCommandStillWritesIsKept() throws Exception {
        Path tmp = Files.createDirectories(temp.resolve("home/tmp"));
        Path busy = folder(tmp, "busy", Duration.ofDays(9), "output-1-ab.txt");
        Path log = Files.writeString(
                Files.createDirectories(busy.resolve("background")).resolve("bg-1.txt"), "x");
        Files.setLastModifiedTime(log, FileTime.from(NOW.minus(Duration.ofHours(1))));
        Files.setLastModifiedTime(busy, FileTime.from(NOW.minus(Duration.ofDays(9))));

        SavedOutputs.prune(tmp, tmp.resolve("own"), NOW);

        assertEquals(List.of("busy"), names(tmp));
    }

    @Test
    void aLinkAmongTheFoldersIsNeverFollowed() throws Exception {
        Path tmp = Files.createDirectories(temp.resolve("home/tmp"));
        Path elsewhere = folder(temp, "elsewhere", Duration.ofDays(30), "precious.txt");
        Files.createSymbolicLink(tmp.resolve("link"), elsewhere);

        SavedOutputs.prune(tmp, tmp.resolve("own"), NOW);

        assertEquals(List.of("link"), names(tmp));
        assertEquals("saved", Files.readString(elsewhere.resolve("precious.txt")));
    }
}
