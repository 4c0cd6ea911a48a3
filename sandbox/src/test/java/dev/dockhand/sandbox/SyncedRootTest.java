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
    void gitFoldersTakeWritesButNoRemovalRetypeOrNewGitFileAnywhere() throws IOException {
        Files.createDirectories(root.resolve(".git/hooks"));
        Files.writeString(root.resolve(".git/config"), "[core]\n");
        Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.createDirectories(root.resolve("libs/inner/.git"));
        Files.writeString(root.resolve("libs/inner/.git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(root.resolve("libs/inner/code.txt"), "x");
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        SyncedRoot synced = new SyncedRoot(root, SyncLimits.DEFAULT, () -> List.of(layout));
        Map<String, SyncEntry> host =
                HostFiles.scan(root, new SyncIgnores(root), SyncLimits.DEFAULT).entries();
        SyncEntry file = new SyncEntry(SyncEntry.Type.FILE, 3, "later", 0644, "");
        SyncEntry folder = SyncEntry.folder(0700);
        SyncEntry link = new SyncEntry(SyncEntry.Type.LINK, 0, "later", 0777, "/etc");

        Map<String, Boolean> answers = new TreeMap<>();
        answers.put(".git removed", synced.isProtected(".git", null, host));
        answers.put(".git made a gitdir file", synced.isProtected(".git", file, host));
        answers.put(".git/config edited", synced.isProtected(".git/config", file, host));
        answers.put(".git/HEAD edited", synced.isProtected(".git/HEAD", file, host));
        answers.put(".git/HEAD removed", synced.isProtected(".git/HEAD", null, host));
        answers.put(".git/objects/ab/cd new", synced.isProtected(".git/objects/ab/cd", file, host));
        answers.put(".git/HOOKS/pre-commit new", synced.isProtected(".git/HOOKS/pre-commit", file, host));
        answers.put(".GIT/hooks/post-checkout new", synced.isProtected(".GIT/hooks/post-checkout", file, host));
        answers.put("libs removed", synced.isProtected("libs", null, host));
        answers.put("libs made a link", synced.isProtected("libs", link, host));
        answers.put("libs mode changed", synced.isProtected("libs", folder, host));
        answers.put("libs/inner/.git/HEAD removed", synced.isProtected("libs/inner/.git/HEAD", null, host));
        answers.put("libs/inner/code.txt removed", synced.isProtected("libs/inner/code.txt", null, host));
        answers.put("new/.git file new", synced.isProtected("new/.git", file, host));
        answers.put("new/.Git/config new", synced.isProtected("new/.Git/config", file, host));
        answers.put("docs/readme.md new", synced.isProtected("docs/readme.md", file, host));

        assertEquals(
                new TreeMap<>(Map.ofEntries(
                        Map.entry(".git removed", true),
                        Map.entry(".git made a gitdir file", true),
                        Map.entry(".git/config edited", true),
                        Map.entry(".git/HEAD edited", false),
                        Map.entry(".git/HEAD removed", true),
                        Map.entry(".git/objects/ab/cd new", false),
                        Map.entry(".git/HOOKS/pre-commit new", true),
                        Map.entry(".GIT/hooks/post-checkout new", true),
                        Map.entry("libs removed", true),
                        Map.entry("libs made a link", true),
                        Map.entry("libs mode changed", false),
                        Map.entry("libs/inner/.git/HEAD removed", true),
                        Map.entry("libs/inner/code.txt removed", false),
                        Map.entry("new/.git file new", true),
                        Map.entry("new/.Git/config new", true),
                        Map.entry("docs/readme.md new", false))),
                answers);
    }

    @Test
    void protectedPathsAreJudgedByNameWhicheverFolderTheyCameFromAndALinkedOneWhereItLeadsToo() throws IOException {
        Files.createDirectories(root.resolve(".git/hooks"));
        Files.createDirectories(root.resolve("scripts"));
        Files.writeString(root.resolve("scripts/pre-commit"), "#!/bin/sh\n");
        Files.createSymbolicLink(root.resolve(".git/hooks/pre-commit"), Path.of("../../scripts/pre-commit"));
        Files.createDirectories(root.resolve("cfg"));
        Files.writeString(root.resolve("cfg/tasks.json"), "{}\n");
        Files.createSymbolicLink(root.resolve(".vscode"), Path.of("cfg"));
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        SyncedRoot synced = new SyncedRoot(root, SyncLimits.DEFAULT, () -> List.of(layout));
        Map<String, SyncEntry> host =
                HostFiles.scan(root, new SyncIgnores(root), SyncLimits.DEFAULT).entries();
        SyncEntry file = new SyncEntry(SyncEntry.Type.FILE, 3, "later", 0755, "");
        SyncEntry folder = SyncEntry.folder(0700);

        // mv scripts scripts2 && mkdir scripts && echo ... > scripts/pre-commit, as the copy back sees it.
        Map<String, Boolean> answers = new TreeMap<>();
        answers.put("scripts removed", synced.isProtected("scripts", null, host));
        answers.put("scripts2/pre-commit new", synced.isProtected("scripts2/pre-commit", file, host));
        answers.put("scripts/pre-commit written", synced.isProtected("scripts/pre-commit", file, host));
        answers.put("cfg/tasks.json written", synced.isProtected("cfg/tasks.json", file, host));
        answers.put(".vscode made a folder", synced.isProtected(".vscode", folder, host));
        answers.put(".vscode/tasks.json new", synced.isProtected(".vscode/tasks.json", file, host));

        assertEquals(
                new TreeMap<>(Map.ofEntries(
                        Map.entry("scripts removed", false),
                        Map.entry("scripts2/pre-commit new", false),
                        Map.entry("scripts/pre-commit written", true),
                        Map.entry("cfg/tasks.json written", true),
                        Map.entry(".vscode made a folder", true),
                        Map.entry(".vscode/tasks.json new", true))),
                answers);
    }

    @Test
    void theGitFolderAGitFilesGitdirLineNamesIsKeptAsAGitFolder() throws IOException {
        // A bare clone beside its work trees: .git reads gitdir: ./.bare, so .bare/config is git's config.
        Files.createDirectories(root.resolve(".bare/hooks"));
        Files.createDirectories(root.resolve(".bare/objects"));
        Files.writeString(root.resolve(".bare/config"), "[core]\n\tbare = true\n");
        Files.writeString(root.resolve(".bare/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(root.resolve(".git"), "gitdir: ./.bare\n");
        ProtectedLayout layout = ProtectedLayout.scan(root, ProtectedPaths.defaults());
        SyncedRoot synced = new SyncedRoot(root, SyncLimits.DEFAULT, () -> List.of(layout));
        Map<String, SyncEntry> host =
                HostFiles.scan(root, new SyncIgnores(root), SyncLimits.DEFAULT).entries();
        SyncEntry file = new SyncEntry(SyncEntry.Type.FILE, 3, "later", 0644, "");
        SyncEntry link = new SyncEntry(SyncEntry.Type.LINK, 0, "later", 0777, "/etc");

        Map<String, Boolean> answers = new TreeMap<>();
        answers.put(".bare/config edited", synced.isProtected(".bare/config", file, host));
        answers.put(".bare/hooks/pre-commit new", synced.isProtected(".bare/hooks/pre-commit", file, host));
        answers.put(".bare/commondir new", synced.isProtected(".bare/commondir", file, host));
        answers.put(".bare/HEAD edited", synced.isProtected(".bare/HEAD", file, host));
        answers.put(".bare/HEAD removed", synced.isProtected(".bare/HEAD", null, host));
        answers.put(".bare/objects/ab new", synced.isProtected(".bare/objects/ab", file, host));
        answers.put(".bare/objects made a link", synced.isProtected(".bare/objects", link, host));
        answers.put(".bare removed", synced.isProtected(".bare", null, host));
        answers.put("src/Main.java removed", synced.isProtected("src/Main.java", null, host));

        assertEquals(
                new TreeMap<>(Map.ofEntries(
                        Map.entry(".bare/config edited", true),
                        Map.entry(".bare/hooks/pre-commit new", true),
                        Map.entry(".bare/commondir new", true),
                        Map.entry(".bare/HEAD edited", false),
                        Map.entry(".bare/HEAD removed", true),
                        Map.entry(".bare/objects/ab new", false),
                        Map.entry(".bare/objects made a link", true),
                        Map.entry(".bare removed", true),
                        Map.entry("src/Main.java removed", false))),
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
