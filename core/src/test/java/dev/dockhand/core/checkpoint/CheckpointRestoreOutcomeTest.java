package dev.dockhand.core.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a restore plans and reports when the workspace is not as the calls left it in ways no call meant: a file grown
 * past any size worth reading, a call that never finished, a file that cannot be written.
 */
class CheckpointRestoreOutcomeTest {
    @TempDir
    Path temp;

    private Path workspace;

    private CheckpointStore open() throws Exception {
        workspace = Files.createDirectories(temp.resolve("project"));
        return CheckpointStore.open(
                temp.resolve("home/checkpoints"), workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE, List.of());
    }

    private static Checkpoint begin(CheckpointStore store, String session, int turn) throws Exception {
        return store.begin(session, turn, "do it", "run_shell_command", "call-" + turn, "a command");
    }

    private static List<String> lines(RestorePlan plan) {
        return plan.files().stream()
                .map(file -> file.path() + " " + file.action() + (file.changedSince() ? " changed since" : ""))
                .toList();
    }

    @Test
    void aFileGrownPastTwoGigabytesIsNeverReadAndItsRecordedVersionComesBack() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("data.csv"), "id,value\n1,2\n");
            Checkpoint begun = begin(store, "s1", 1);
            // Sparse: three gigabytes that take no disk, as "truncate -s 3G data.csv" leaves them.
            try (RandomAccessFile file =
                    new RandomAccessFile(workspace.resolve("data.csv").toFile(), "rw")) {
                file.setLength(3L << 30);
            }
            Checkpoint finished = store.finish(begun);

            RestorePlan plan = store.plan(List.of(finished));
            CheckpointStore.Restored restored = store.restore(plan);

            // The snapshot after the call could not record it (too large), so who grew it cannot be told: it is named.
            assertEquals(List.of("data.csv WRITE changed since"), lines(plan));
            assertEquals(new CheckpointStore.Restored(List.of("data.csv"), Map.of()), restored);
        }
        assertEquals("id,value\n1,2\n", Files.readString(workspace.resolve("data.csv")));
    }

    @Test
    void aFileOfARecordedSizeIsStillReadAndComparedByItsBytes() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("a.txt"), "one\n");
            Checkpoint begun = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "two\n");
            Checkpoint finished = store.finish(begun);
            // Same size as both recorded versions, other bytes: changed by hand.
            Files.writeString(workspace.resolve("a.txt"), "six\n");

            assertEquals(List.of("a.txt WRITE changed since"), lines(store.plan(List.of(finished))));
            Files.writeString(workspace.resolve("a.txt"), "two\n");
            assertEquals(List.of("a.txt WRITE"), lines(store.plan(List.of(finished))));
            Files.writeString(workspace.resolve("a.txt"), "one\n");
            assertEquals(List.of(), lines(store.plan(List.of(finished))));
        }
    }

    @Test
    void aHandEditAfterACallThatNeverFinishedIsNamedWhenALaterCheckpointShowsWhatTheCallLeft() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("a.txt"), "before\n");
            Checkpoint killed = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "by the call\n");
            // Dockhand was killed during the call: no finish. The next session's first call changes something else.
            Checkpoint next = begin(store, "s2", 1);
            Files.writeString(workspace.resolve("b.txt"), "new\n");
            store.finish(next);
            Files.writeString(workspace.resolve("a.txt"), "by hand\n");

            RestorePlan plan = store.plan(store.since(killed));

            assertEquals(List.of("a.txt WRITE changed since", "b.txt REMOVE"), lines(plan));
        }
    }

    @Test
    void aCallThatNeverFinishedAndIsTheLastTakesWhatDiffersNowAsItsOwn() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("a.txt"), "before\n");
            Checkpoint killed = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "by the call or by hand\n");

            assertEquals(List.of("a.txt WRITE"), lines(store.plan(store.since(killed))));
        }
    }

    @Test
    void aFileThatCannotBeWrittenIsListedWithWhyAndTheOthersAreRestored() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("a.txt"), "first\n");
            Files.writeString(workspace.resolve("b.txt"), "second\n");
            Checkpoint begun = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "changed\n");
            Files.writeString(workspace.resolve("b.txt"), "changed\n");
            Files.writeString(workspace.resolve("c.txt"), "created\n");
            Checkpoint finished = store.finish(begun);
            RestorePlan plan = store.plan(List.of(finished));
            // The store lost a.txt's recorded bytes (a disk error, say): writing it fails, as a full disk would.
            ObjectId lost = blobOf(store, plan.files().get(0).fromTree(), "a.txt");
            Files.delete(store.folder()
                    .resolve("git/objects/" + lost.name().substring(0, 2) + "/"
                            + lost.name().substring(2)));

            CheckpointStore.Restored restored = store.restore(plan);

            assertEquals(List.of("c.txt", "b.txt"), restored.restored());
            assertEquals(List.of("a.txt"), List.copyOf(restored.skipped().keySet()));
            assertEquals(
                    "cannot be written: Missing blob " + lost.name(),
                    restored.skipped().get("a.txt"));
        }
        assertEquals("changed\n", Files.readString(workspace.resolve("a.txt")));
        assertEquals("second\n", Files.readString(workspace.resolve("b.txt")));
        assertEquals(false, Files.exists(workspace.resolve("c.txt")));
    }

    @Test
    void aFileThatCannotBeLookedAtIsPlannedAsChangedSinceAndTheOthersAsUsual() throws Exception {
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve("a.txt"), "first\n");
            Files.writeString(workspace.resolve("b.txt"), "second\n");
            Checkpoint begun = begin(store, "s1", 1);
            Files.writeString(workspace.resolve("a.txt"), "changed a\n");
            Files.writeString(workspace.resolve("b.txt"), "changed\n");
            Checkpoint finished = store.finish(begun);
            // Looking at a.txt now fails (here the store lost what the call left of it; a folder made unreadable
            // fails the same way): that file is in doubt, the rest of the plan is not.
            ObjectId lost = blobOf(store, finished.after().orElseThrow(), "a.txt");
            Files.delete(store.folder()
                    .resolve("git/objects/" + lost.name().substring(0, 2) + "/"
                            + lost.name().substring(2)));

            RestorePlan plan = store.plan(List.of(finished));

            assertEquals(List.of("a.txt WRITE changed since", "b.txt WRITE"), lines(plan));
            CheckpointStore.Restored restored = store.restore(plan);
            assertEquals(List.of("a.txt", "b.txt"), restored.restored());
        }
        assertEquals("first\n", Files.readString(workspace.resolve("a.txt")));
        assertEquals("second\n", Files.readString(workspace.resolve("b.txt")));
    }

    @Test
    void aFileWhoseNameIsNearTheLimitIsRestored() throws Exception {
        String name = "n".repeat(250) + ".txt";
        try (CheckpointStore store = open()) {
            Files.writeString(workspace.resolve(name), "before\n");
            Checkpoint begun = begin(store, "s1", 1);
            Files.writeString(workspace.resolve(name), "after\n");
            Checkpoint finished = store.finish(begun);

            assertEquals(
                    new CheckpointStore.Restored(List.of(name), Map.of()),
                    store.restore(store.plan(List.of(finished))));
        }
        assertEquals("before\n", Files.readString(workspace.resolve(name)));
    }

    @Test
    void aLinkComesBackAsTheLinkItWasAndAFileKeepsItsPermissions() throws Exception {
        try (CheckpointStore store = open()) {
            Files.createSymbolicLink(workspace.resolve("current"), Path.of("releases/1"));
            Files.writeString(workspace.resolve("secret.txt"), "mine\n");
            Files.setPosixFilePermissions(
                    workspace.resolve("secret.txt"), PosixFilePermissions.fromString("rw-------"));
            Checkpoint begun = begin(store, "s1", 1);
            Files.delete(workspace.resolve("current"));
            Files.writeString(workspace.resolve("current"), "a file now\n");
            Files.writeString(workspace.resolve("secret.txt"), "changed\n");
            Checkpoint finished = store.finish(begun);

            assertEquals(
                    new CheckpointStore.Restored(List.of("current", "secret.txt"), Map.of()),
                    store.restore(store.plan(List.of(finished))));
        }
        assertEquals(Path.of("releases/1"), Files.readSymbolicLink(workspace.resolve("current")));
        assertEquals("mine\n", Files.readString(workspace.resolve("secret.txt")));
        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(workspace.resolve("secret.txt"))));
        assertEquals(
                List.of("current", "secret.txt"),
                Stream.of(workspace.toFile().list()).sorted().toList());
    }

    /** The blob holding {@code path}'s bytes in the snapshot {@code tree}. */
    private static ObjectId blobOf(CheckpointStore store, String tree, String path) throws Exception {
        try (ShadowRepository shadow =
                ShadowRepository.open(store.folder().resolve("git"), store.folder(), 1 << 20, List.of())) {
            return shadow.file(ObjectId.fromString(tree), path).orElseThrow().blob();
        }
    }
}
