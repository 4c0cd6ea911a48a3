package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.tool.ProtectedLayout;
import dev.dockhand.core.tool.ProtectedPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncedRootTest {
    @TempDir
    Path root;

    @BeforeEach
    void realPaths() throws IOException {
        root = root.toRealPath();
    }

    @Test
    void gitFoldersTheFoldersAboveThemAndAnyNewGitFileAreNeverCopiedBack() throws IOException {
        Files.createDirectories(root.resolve(".git/hooks"));
        Files.writeString(root.resolve(".git/config"), "[core]\n");
        Files.createDirectories(root.resolve("libs/inner/.git"));
        Files.writeString(root.resolve("libs/inner/.git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(root.resolve("libs/inner/code.txt"), "x");
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        SyncedRoot synced = new SyncedRoot(root, SyncLimits.DEFAULT, () -> List.of(layout));

        Map<String, Boolean> answers = new TreeMap<>();
        for (String path : List.of(
                ".git",
                ".git/config",
                ".GIT/hooks/post-checkout",
                "libs",
                "libs/inner",
                "libs/inner/.git",
                "libs/inner/.git/HEAD",
                "libs/inner/code.txt",
                "libs/other.txt",
                "new/.git",
                "new/.Git/config",
                "docs/readme.md")) {
            answers.put(path, synced.isProtected(path));
        }

        assertEquals(
                new TreeMap<>(Map.ofEntries(
                        Map.entry(".git", true),
                        Map.entry(".git/config", true),
                        Map.entry(".GIT/hooks/post-checkout", true),
                        Map.entry("libs", true),
                        Map.entry("libs/inner", true),
                        Map.entry("libs/inner/.git", true),
                        Map.entry("libs/inner/.git/HEAD", true),
                        Map.entry("libs/inner/code.txt", false),
                        Map.entry("libs/other.txt", false),
                        Map.entry("new/.git", true),
                        Map.entry("new/.Git/config", true),
                        Map.entry("docs/readme.md", false))),
                answers);
    }

    @Test
    void hardLinksAndDevicesInAnArchiveAreNotFiles() {
        Map<String, Boolean> answers = new TreeMap<>();
        answers.put("file", SyncedRoot.plainFile(new TarArchiveEntry("file", TarConstants.LF_NORMAL)));
        answers.put("hard link", SyncedRoot.plainFile(new TarArchiveEntry("link", TarConstants.LF_LINK)));
        answers.put("char device", SyncedRoot.plainFile(new TarArchiveEntry("tty", TarConstants.LF_CHR)));
        answers.put("block device", SyncedRoot.plainFile(new TarArchiveEntry("sda", TarConstants.LF_BLK)));
        answers.put("fifo", SyncedRoot.plainFile(new TarArchiveEntry("pipe", TarConstants.LF_FIFO)));

        assertEquals(
                Map.of(
                        "file", true,
                        "hard link", false,
                        "char device", false,
                        "block device", false,
                        "fifo", false),
                answers);
    }
}
