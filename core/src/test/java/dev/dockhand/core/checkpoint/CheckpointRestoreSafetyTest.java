package dev.dockhand.core.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a restore does when a call left the workspace in a shape meant to turn the restore against the user. */
class CheckpointRestoreSafetyTest {
    @TempDir
    Path temp;

    private Path workspace;
    private Path outside;

    private CheckpointStore open() throws Exception {
        workspace = temp.resolve("project");
        outside = temp.resolve("outside");
        Files.createDirectories(workspace);
        Files.createDirectories(outside);
        return CheckpointStore.open(temp.resolve("home/checkpoints"), workspace, 1 << 20, List.of());
    }

    private static Checkpoint begin(CheckpointStore store, int turn) throws Exception {
        return store.begin("s1", turn, "do it", "run_shell_command", "call-" + turn, "a command");
    }

    /** Ignores {@code sub} and turns it into a link to the folder outside, as a model's command could. */
    private void plantLink() throws Exception {
        Files.writeString(workspace.resolve(".gitignore"), "sub\n");
        for (String name : List.of("sub/authorized_keys", "sub/precious", "sub")) {
            Files.deleteIfExists(workspace.resolve(name));
        }
        Files.createSymbolicLink(workspace.resolve("sub"), outside);
    }

    @Test
    void aFileBehindAPlantedLinkIsNotWrittenAndTheRestoreSaysWhy() throws Exception {
        try (CheckpointStore store = open()) {
            Files.createDirectories(workspace.resolve("sub"));
            Files.writeString(workspace.resolve("sub/authorized_keys"), "ssh-rsa ATTACKER\n");
            Checkpoint checkpoint = begin(store, 1);
            plantLink();
            Checkpoint finished = store.finish(checkpoint);

            CheckpointStore.Restored restored = store.restore(store.plan(List.of(finished)));

            assertEquals(
                    new CheckpointStore.Restored(
                            List.of(".gitignore"), Map.of("sub/authorized_keys", "sub is a symbolic link")),
                    restored);
        }
        assertEquals(List.of(), List.of(outside.toFile().list()));
        assertEquals(outside, Files.readSymbolicLink(workspace.resolve("sub")));
    }

    @Test
    void aFileBehindAPlantedLinkIsNotRemoved() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(outside.resolve("precious"), "keep\n");
            Checkpoint first = begin(store, 1);
            Files.createDirectories(workspace.resolve("sub"));
            Files.writeString(workspace.resolve("sub/precious"), "made by the call\n");
            Checkpoint firstDone = store.finish(first);
            Checkpoint second = begin(store, 2);
            plantLink();
            Checkpoint secondDone = store.finish(second);

            RestorePlan plan = store.plan(List.of(firstDone, secondDone));
            CheckpointStore.Restored restored = store.restore(plan);

            assertEquals(
                    List.of(".gitignore REMOVE"),
                    plan.files().stream()
                            .map(file -> file.path() + " " + file.action())
                            .toList());
            assertEquals(new CheckpointStore.Restored(List.of(".gitignore"), Map.of()), restored);
        }
        assertEquals("keep\n", Files.readString(outside.resolve("precious")));
    }

    @Test
    void aFileThatExistedButWasIgnoredIsKeptWhenTheCallThatUnignoredItIsUndone() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve(".gitignore"), ".env\n");
            Files.writeString(workspace.resolve(".env"), "TOKEN=mine\n");
            // Older than the call by more than the clock slack, as a real .env is.
            Files.setLastModifiedTime(
                    workspace.resolve(".env"),
                    java.nio.file.attribute.FileTime.from(
                            java.time.Instant.now().minusSeconds(60)));
            Checkpoint checkpoint = begin(store, 1);
            Files.writeString(workspace.resolve(".gitignore"), "");
            Files.writeString(workspace.resolve("made.txt"), "by the call\n");
            Checkpoint finished = store.finish(checkpoint);

            RestorePlan plan = store.plan(List.of(finished));
            CheckpointStore.Restored restored = store.restore(plan);

            assertEquals(
                    List.of(".env KEEP", ".gitignore WRITE", "made.txt REMOVE"),
                    plan.files().stream()
                            .map(file -> file.path() + " " + file.action())
                            .toList());
            assertEquals(new CheckpointStore.Restored(List.of("made.txt", ".gitignore"), Map.of()), restored);
        }
        assertEquals("TOKEN=mine\n", Files.readString(workspace.resolve(".env")));
        assertEquals(".env\n", Files.readString(workspace.resolve(".gitignore")));
        assertEquals(false, Files.exists(workspace.resolve("made.txt")));
    }

    @Test
    void aRestoredFileReplacesALinkAtItsNameNotWhatTheLinkPointsTo() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("notes.txt"), "mine\n");
            Files.writeString(outside.resolve("target"), "outside\n");
            Checkpoint checkpoint = begin(store, 1);
            Files.delete(workspace.resolve("notes.txt"));
            Files.createSymbolicLink(workspace.resolve("notes.txt"), outside.resolve("target"));
            Checkpoint finished = store.finish(checkpoint);

            CheckpointStore.Restored restored = store.restore(store.plan(List.of(finished)));

            assertEquals(new CheckpointStore.Restored(List.of("notes.txt"), Map.of()), restored);
        }
        assertEquals(false, Files.isSymbolicLink(workspace.resolve("notes.txt")));
        assertEquals("mine\n", Files.readString(workspace.resolve("notes.txt")));
        assertEquals("outside\n", Files.readString(outside.resolve("target")));
        // No temporary file is left beside the restored one.
        assertEquals(List.of("notes.txt"), List.of(workspace.toFile().list()));
    }

    @Test
    void filesNamedAsGitRefusesAreLeftOutAndTheRestIsRecordedAndRestored() throws Exception {
        try (CheckpointStore store = open()) {
            Files.createDirectories(workspace.resolve("src"));
            Files.writeString(workspace.resolve("src/Main.java"), "class Main {}\n");
            Checkpoint checkpoint = begin(store, 1);
            Files.delete(workspace.resolve("src/Main.java"));
            for (String name : List.of(".Git", ".git ", "git~1/x", "deep/.GIT/config")) {
                Files.createDirectories(workspace.resolve(name).getParent());
                Files.writeString(workspace.resolve(name), "x\n");
            }
            Checkpoint finished = store.finish(checkpoint);

            assertEquals(List.of("src/Main.java"), finished.files());
            assertEquals(
                    new CheckpointStore.Restored(List.of("src/Main.java"), Map.of()),
                    store.restore(store.plan(List.of(finished))));
        }
        assertEquals("class Main {}\n", Files.readString(workspace.resolve("src/Main.java")));
    }

    @Test
    void aFolderInTheWayOfARestoredFileIsKeptWhenItHoldsFilesNoCheckpointRecorded() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve(".gitignore"), "node_modules/\n");
            Files.writeString(workspace.resolve("cache"), "mine\n");
            Checkpoint checkpoint = begin(store, 1);
            Files.delete(workspace.resolve("cache"));
            Files.createDirectories(workspace.resolve("cache/node_modules"));
            Files.writeString(workspace.resolve("cache/node_modules/lib.js"), "installed\n");
            Files.writeString(workspace.resolve("cache/made.txt"), "by the call\n");
            Checkpoint finished = store.finish(checkpoint);

            CheckpointStore.Restored restored = store.restore(store.plan(List.of(finished)));

            assertEquals(
                    new CheckpointStore.Restored(
                            List.of("cache/made.txt"),
                            Map.of(
                                    "cache",
                                    "cache is a folder now, holding files no checkpoint recorded"
                                            + " (cache/node_modules/lib.js): left as it is")),
                    restored);
        }
        assertEquals("installed\n", Files.readString(workspace.resolve("cache/node_modules/lib.js")));
    }

    @Test
    void aFolderInTheWayOfARestoredFileHoldingOnlyFoldersIsReplaced() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("cache"), "mine\n");
            Checkpoint checkpoint = begin(store, 1);
            Files.delete(workspace.resolve("cache"));
            Files.createDirectories(workspace.resolve("cache/empty/deeper"));
            Files.writeString(workspace.resolve("cache/made.txt"), "by the call\n");
            Checkpoint finished = store.finish(checkpoint);

            CheckpointStore.Restored restored = store.restore(store.plan(List.of(finished)));

            assertEquals(new CheckpointStore.Restored(List.of("cache/made.txt", "cache"), Map.of()), restored);
        }
        assertEquals("mine\n", Files.readString(workspace.resolve("cache")));
    }

    /** Swaps the folder {@code x} for a link to the folder outside, as a command running alongside could. */
    private void swapForLink() {
        try {
            Files.move(workspace.resolve("x"), workspace.resolve("x.real"));
            Files.createSymbolicLink(workspace.resolve("x"), outside);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aFolderSwappedForALinkAfterItWasCheckedIsNotWrittenThrough() throws Exception {
        try (CheckpointStore store = open()) {
            Files.createDirectories(workspace.resolve("x"));
            Files.writeString(workspace.resolve("x/victim"), "recorded\n");
            Files.writeString(workspace.resolve("x/keep"), "k\n");
            Checkpoint checkpoint = begin(store, 1);
            Files.delete(workspace.resolve("x/victim"));
            Checkpoint finished = store.finish(checkpoint);
            RestorePlan plan = store.plan(List.of(finished));
            store.beforeChange(this::swapForLink);

            CheckpointStore.Restored restored = store.restore(plan);

            assertEquals(
                    new CheckpointStore.Restored(
                            List.of(),
                            Map.of(
                                    "x/victim",
                                    "x was moved or replaced during the restore, so nothing was changed in it")),
                    restored);
        }
        assertEquals(List.of(), List.of(outside.toFile().list()));
        assertEquals(
                List.of("keep"), List.of(workspace.resolve("x.real").toFile().list()));
    }

    @Test
    void aFolderSwappedForALinkAfterItWasCheckedHasNothingRemovedThrough() throws Exception {
        try (CheckpointStore store = open()) {
            Files.createDirectories(workspace.resolve("x"));
            Files.writeString(workspace.resolve("x/keep"), "k\n");
            Files.writeString(outside.resolve("victim"), "the user's\n");
            Checkpoint checkpoint = begin(store, 1);
            Files.writeString(workspace.resolve("x/victim"), "made by the call\n");
            Checkpoint finished = store.finish(checkpoint);
            RestorePlan plan = store.plan(List.of(finished));
            store.beforeChange(this::swapForLink);

            CheckpointStore.Restored restored = store.restore(plan);

            assertEquals(
                    new CheckpointStore.Restored(
                            List.of(),
                            Map.of(
                                    "x/victim",
                                    "x was moved or replaced during the restore, so nothing was changed in it")),
                    restored);
        }
        assertEquals("the user's\n", Files.readString(outside.resolve("victim")));
        assertEquals(
                List.of("keep", "victim"),
                Stream.of(workspace.resolve("x.real").toFile().list()).sorted().toList());
    }
}
