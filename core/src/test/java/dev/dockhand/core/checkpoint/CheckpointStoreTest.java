package dev.dockhand.core.checkpoint;

import static dev.dockhand.core.testing.GitRepositories.git;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.dockhand.core.testing.GitRepositories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {
    @TempDir
    Path temp;

    private Path workspace() throws Exception {
        Path workspace = temp.resolve("project");
        Files.createDirectories(workspace);
        return workspace;
    }

    private CheckpointStore open(Path workspace, long maxFileSize) throws Exception {
        return CheckpointStore.open(temp.resolve("home/checkpoints"), workspace, maxFileSize, List.of());
    }

    private static Checkpoint begin(CheckpointStore store, String session, int turn) throws Exception {
        return store.begin(session, turn, "do it", "run_shell_command", "call-" + turn, "a command");
    }

    /** Every file with its content, and "+x" after an executable one's name; folders too, so an empty one shows. */
    private static Map<String, String> state(Path workspace) throws Exception {
        Map<String, String> state = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(workspace)) {
            for (Path path : paths.filter(path -> !path.equals(workspace)).toList()) {
                String name = workspace.relativize(path).toString();
                if (Files.isDirectory(path)) {
                    state.put(name + "/", "");
                } else {
                    state.put(name + (Files.isExecutable(path) ? " +x" : ""), Files.readString(path));
                }
            }
        }
        return state;
    }

    /** Every file under {@code folder}/{@code place} (in any workspace's store), with a digest of its bytes. */
    private static Map<String, String> bytesOf(Path folder, String place) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
                String name = folder.relativize(file).toString();
                if (name.startsWith(place + "/") || name.contains("/" + place + "/")) {
                    byte[] digest =
                            java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
                    files.put(name, java.util.HexFormat.of().formatHex(digest));
                }
            }
        }
        return files;
    }

    @Test
    void whatACallCreatedChangedDeletedRenamedOrMadeExecutableIsTakenBackInAFolderThatIsNoRepository()
            throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        Files.writeString(workspace.resolve("c.txt"), "doomed\n");
        Files.writeString(workspace.resolve("d.txt"), "moving\n");
        Files.writeString(workspace.resolve("run.sh"), "echo hi\n");
        Files.createDirectories(workspace.resolve("src"));
        Files.writeString(workspace.resolve("src/Main.java"), "class Main {}\n");
        Map<String, String> before = state(workspace);

        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint checkpoint = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "two\n");
            Files.writeString(workspace.resolve("b.txt"), "new\n");
            Files.delete(workspace.resolve("c.txt"));
            Files.move(workspace.resolve("d.txt"), workspace.resolve("e.txt"));
            Files.setPosixFilePermissions(workspace.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.createDirectories(workspace.resolve("gen/deep"));
            Files.writeString(workspace.resolve("gen/deep/Made.java"), "class Made {}\n");
            Checkpoint finished = store.finish(checkpoint);

            assertEquals(
                    List.of("a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "gen/deep/Made.java", "run.sh"),
                    finished.files());
            RestorePlan plan = store.plan(List.of(finished));
            assertEquals(
                    List.of(
                            "a.txt WRITE",
                            "b.txt REMOVE",
                            "c.txt WRITE",
                            "d.txt WRITE",
                            "e.txt REMOVE",
                            "gen/deep/Made.java REMOVE",
                            "run.sh WRITE"),
                    plan.files().stream()
                            .map(file -> file.path() + " " + file.action())
                            .toList());
            assertEquals(List.of(), plan.changedSince());
            store.restore(plan);
        }

        assertEquals(before, state(workspace));
    }

    @Test
    void theProjectsOwnRepositoryIsLeftAsItWasIndexHeadAndStash() throws Exception {
        Path workspace = workspace();
        GitRepositories.withNestedRepository(workspace);
        Files.writeString(workspace.resolve("README"), "stashed change\n");
        git(workspace, "stash", "-q");
        Files.writeString(workspace.resolve("staged.txt"), "staged\n");
        git(workspace, "add", "staged.txt");
        Map<String, String> repository = bytesOf(workspace, ".git");
        String status = git(workspace, "status", "--porcelain");
        String stash = git(workspace, "stash", "list");

        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint checkpoint = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("README"), "changed by the model\n");
            Files.writeString(workspace.resolve("vendor/x/README"), "changed in the nested one\n");
            Checkpoint finished = store.finish(checkpoint);
            assertEquals(List.of("README", "vendor/x/README"), finished.files());
            store.restore(store.plan(List.of(finished)));
        }

        assertEquals(repository, bytesOf(workspace, ".git"));
        assertEquals(status, git(workspace, "status", "--porcelain"));
        assertEquals(stash, git(workspace, "stash", "list"));
        assertEquals("hello\n", Files.readString(workspace.resolve("README")));
    }

    @Test
    void ignoredAndOversizeFilesAreNeitherRecordedNorRestored() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve(".gitignore"), "*.log\nbuild/\n");
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        Files.writeString(workspace.resolve("run.log"), "old log\n");
        Files.writeString(workspace.resolve("big.bin"), "x".repeat(200));

        try (CheckpointStore store = open(workspace, 100)) {
            Checkpoint checkpoint = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "two\n");
            Files.writeString(workspace.resolve("run.log"), "new log\n");
            Files.writeString(workspace.resolve("big.bin"), "y".repeat(300));
            Files.createDirectories(workspace.resolve("build"));
            Files.writeString(workspace.resolve("build/out.class"), "bytes");
            Checkpoint finished = store.finish(checkpoint);

            assertEquals(List.of("a.txt"), finished.files());
            store.restore(store.plan(List.of(finished)));
        }

        assertEquals("one\n", Files.readString(workspace.resolve("a.txt")));
        assertEquals("new log\n", Files.readString(workspace.resolve("run.log")));
        assertEquals("y".repeat(300), Files.readString(workspace.resolve("big.bin")));
        assertEquals("bytes", Files.readString(workspace.resolve("build/out.class")));
    }

    /**
     * A repository's .gitignore is the workspace's to write: a rule of many stars against a long name took JGit's
     * matcher hours (21 s at 28 characters, doubling with each one more), on the turn's thread before every edit.
     */
    @Test
    void aGitignoreRuleOfManyStarsDoesNotHoldUpACheckpoint() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve(".gitignore"), "*a*a*a*a*a*a*a*a*a*a*a*a*b\n");
        String kept = "a".repeat(255);
        String ignored = "a".repeat(254) + "b";
        Files.writeString(workspace.resolve(kept), "one\n");
        Files.writeString(workspace.resolve(ignored), "one\n");

        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint finished = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                Checkpoint checkpoint = begin(store, "s1", 1);
                Files.writeString(workspace.resolve(kept), "two\n");
                Files.writeString(workspace.resolve(ignored), "two\n");
                return store.finish(checkpoint);
            });

            assertEquals(List.of(kept), finished.files());
        }
    }

    @Test
    void aFileChangedByHandSinceTheCallIsNamedBeforeItIsOverwritten() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        Files.writeString(workspace.resolve("b.txt"), "one\n");
        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint checkpoint = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "by the model\n");
            Files.writeString(workspace.resolve("b.txt"), "by the model\n");
            Checkpoint finished = store.finish(checkpoint);
            Files.writeString(workspace.resolve("a.txt"), "by hand\n");

            RestorePlan plan = store.plan(List.of(finished));

            assertEquals(List.of("a.txt"), plan.changedSince());
            store.restore(plan);
            assertEquals("one\n", Files.readString(workspace.resolve("a.txt")));
        }
    }

    @Test
    void eachFileGoesBackToItsStateBeforeTheFirstCallThatChangedItKeepingEditsByHandBetweenCalls() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        Files.writeString(workspace.resolve("b.txt"), "one\n");
        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint first = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "model 1\n");
            first = store.finish(first);
            Files.writeString(workspace.resolve("b.txt"), "by hand between calls\n");
            Checkpoint second = begin(store, "s1", 3);
            Files.writeString(workspace.resolve("b.txt"), "model 2\n");
            Files.writeString(workspace.resolve("a.txt"), "model 2\n");
            second = store.finish(second);

            assertEquals(List.of(first, second), store.since(first));
            store.restore(store.plan(store.since(first)));
        }

        assertEquals("one\n", Files.readString(workspace.resolve("a.txt")));
        assertEquals("by hand between calls\n", Files.readString(workspace.resolve("b.txt")));
    }

    @Test
    void aCutTakesBackTheSessionsCheckpointsFromThatTurnOn() throws Exception {
        Path workspace = workspace();
        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint first = store.finish(begin(store, "s1", 1));
            Checkpoint second = store.finish(begin(store, "s1", 3));
            Checkpoint other = store.finish(begin(store, "s2", 3));

            store.cut("s1", 3);
            Checkpoint later = store.finish(begin(store, "s1", 3));

            assertEquals(List.of(first, later), store.live("s1"));
            // A restore from the middle of a turn takes back that call and the later ones, not the turn's earlier.
            Checkpoint laterStill = store.finish(begin(store, "s1", 3));
            store.cut("s1", 3, laterStill.time());
            assertEquals(List.of(first, later), store.live("s1"));
            assertEquals(List.of(other), store.live("s2"));
            assertEquals(List.of(first, second, other, later, laterStill), store.list());
        }
    }

    @Test
    void checkpointsPastTheAgeOrSizeBoundArePrunedOldestFirst() throws Exception {
        Path workspace = workspace();
        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Files.writeString(workspace.resolve("f.txt"), "version " + i + "\n");
                ids.add(store.finish(begin(store, "s1", i)).id());
            }
            Instant now = Instant.now();

            assertEquals(
                    List.of(),
                    store.prune(now, CheckpointStore.MAX_AGE, Long.MAX_VALUE).ids());
            CheckpointStore.Pruned pruned = store.prune(now.plus(Duration.ofDays(1)), CheckpointStore.MAX_AGE, 0);

            assertEquals(ids, pruned.ids());
            assertEquals(List.of(), store.list());
            assertEquals(Map.of(), bytesOf(temp.resolve("home/checkpoints"), "refs/checkpoints"));
        }
    }

    @Test
    void checkpointsOlderThanThirtyDaysArePruned() throws Exception {
        Path workspace = workspace();
        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            String id = store.finish(begin(store, "s1", 1)).id();

            CheckpointStore.Pruned pruned =
                    store.prune(Instant.now().plus(Duration.ofDays(31)), CheckpointStore.MAX_AGE, Long.MAX_VALUE);

            assertEquals(List.of(id), pruned.ids());
            assertEquals(List.of(), store.list());
            assertFalse(store.find(id).isPresent());
        }
    }

    @Test
    void theDiffShowsWhatChangedSinceTheCheckpoint() throws Exception {
        Path workspace = workspace();
        Files.writeString(workspace.resolve("a.txt"), "one\n");
        try (CheckpointStore store = open(workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE)) {
            Checkpoint checkpoint = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "two\n");
            store.finish(checkpoint);

            assertEquals(
                    """
                    diff --git a/a.txt b/a.txt
                    index 5626abf..f719efd 100644
                    --- a/a.txt
                    +++ b/a.txt
                    @@ -1 +1 @@
                    -one
                    +two
                    """,
                    store.diff(checkpoint));
        }
    }
}
