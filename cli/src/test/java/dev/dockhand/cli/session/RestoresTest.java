package dev.dockhand.cli.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.dockhand.core.checkpoint.Checkpoint;
import dev.dockhand.core.checkpoint.CheckpointStore;
import dev.dockhand.core.checkpoint.RestorePlan;
import dev.dockhand.core.sandbox.HostWrites;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint restore writes the workspace in its own host-write turn, as the file tools do. */
class RestoresTest {
    @TempDir
    Path temp;

    /** Turns one at a time, as the sync transport hands them out; says when a turn is asked for. */
    private static final class OneAtATime implements HostWrites {
        final Semaphore free = new Semaphore(1);
        final CountDownLatch asked = new CountDownLatch(1);

        @Override
        public Turn take() {
            asked.countDown();
            free.acquireUninterruptibly();
            return free::release;
        }
    }

    @Test
    void aRestoreWaitsForACopyBackHoldingTheTurnAndWritesAfterIt() throws Exception {
        Path workspace = Files.createDirectories(temp.resolve("workspace")).toRealPath();
        Files.writeString(workspace.resolve("notes.txt"), "before\n");
        try (CheckpointStore store =
                CheckpointStore.open(temp.resolve("home/checkpoints"), workspace, 1 << 20, List.of())) {
            Checkpoint begun = store.begin("s1", 1, "change it", "write_file", "call-1", "notes.txt");
            Files.writeString(workspace.resolve("notes.txt"), "after\n");
            Checkpoint finished = store.finish(begun);
            RestorePlan plan = store.plan(List.of(finished));
            OneAtATime hostWrites = new OneAtATime();
            // A background copy back of a cancelled command holds the turn.
            HostWrites.Turn copyBack = hostWrites.take();

            CompletableFuture<CheckpointStore.Restored> restore = CompletableFuture.supplyAsync(() -> {
                try {
                    return Restores.restore(store, plan, List.of(finished), hostWrites);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> hostWrites.asked.await());

            assertEquals("after\n", Files.readString(workspace.resolve("notes.txt")));
            copyBack.close();
            CheckpointStore.Restored restored = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> restore.join());

            assertEquals(new CheckpointStore.Restored(List.of("notes.txt"), Map.of()), restored);
            assertEquals("before\n", Files.readString(workspace.resolve("notes.txt")));
        }
    }

    @Test
    void aRestoreThatCannotHaveItsTurnInTimeRestoresNothingAndSaysWhy() throws Exception {
        Path workspace = Files.createDirectories(temp.resolve("workspace")).toRealPath();
        Files.writeString(workspace.resolve("notes.txt"), "before\n");
        try (CheckpointStore store =
                CheckpointStore.open(temp.resolve("home/checkpoints"), workspace, 1 << 20, List.of())) {
            Checkpoint begun = store.begin("s1", 1, "change it", "write_file", "call-1", "notes.txt");
            Files.writeString(workspace.resolve("notes.txt"), "after\n");
            Checkpoint finished = store.finish(begun);
            RestorePlan plan = store.plan(List.of(finished));
            // A copy back stuck on a silent engine: the turn never comes within the wait.
            HostWrites stuck = new HostWrites() {
                @Override
                public Turn take() {
                    throw new AssertionError("a restore must not wait without a bound");
                }

                @Override
                public Optional<Turn> tryTake(Duration wait) {
                    assertEquals(Restores.TURN_WAIT, wait);
                    return Optional.empty();
                }
            };

            IOException refused =
                    assertThrows(IOException.class, () -> Restores.restore(store, plan, List.of(finished), stuck));

            assertEquals(
                    "the sandbox is still copying back a stopped command's changes (its engine is slow to answer);"
                            + " nothing was restored, try again in a moment",
                    refused.getMessage());
            assertEquals("after\n", Files.readString(workspace.resolve("notes.txt")));
            assertEquals(List.of(finished), store.live("s1"));
        }
    }

    @Test
    void namesTheModelChoseCannotRewriteTheLinesBeforeTheQuestion() {
        // Moves up a line, erases it and returns: shown raw it would hide the warning about a hand edit above it.
        String hostile = "notes\u001b[1A\u001b[2K\r.txt\nrestore  safe.txt";
        RestorePlan plan = new RestorePlan(List.of(
                new RestorePlan.FileRestore("a.txt", RestorePlan.Action.WRITE, true, "tree"),
                new RestorePlan.FileRestore(hostile, RestorePlan.Action.REMOVE, true, "tree"),
                new RestorePlan.FileRestore(hostile + ".env", RestorePlan.Action.KEEP, false, "tree")));

        assertEquals(
                List.of(
                        "  restore  a.txt   (changed since by hand: your change is overwritten)",
                        "  remove   notes.txtrestore  safe.txt   (changed since by hand: your change is overwritten)",
                        "  keep     notes.txtrestore  safe.txt.env   (older than the call, never recorded: ignored or"
                                + " too large then, so it is not removed)",
                        "Changed since the checkpoint, not by Dockhand: a.txt, notes.txtrestore  safe.txt."),
                Restores.describe(plan));
        assertEquals(
                List.of("  not restored  notes.txtrestore  safe.txt   (notes.txtrestore  safe.txt is a symbolic"
                        + " link)"),
                Restores.skipped(
                        new CheckpointStore.Restored(List.of(), Map.of(hostile, hostile + " is a symbolic link"))));
    }

    @Test
    void aRestoreThatRestoredNothingLeavesItsCheckpointsToBeTriedAgain() throws Exception {
        Path workspace = Files.createDirectories(temp.resolve("workspace")).toRealPath();
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.createDirectories(workspace.resolve("sub"));
        Files.writeString(workspace.resolve("sub/notes.txt"), "before\n");
        try (CheckpointStore store =
                CheckpointStore.open(temp.resolve("home/checkpoints"), workspace, 1 << 20, List.of())) {
            Checkpoint begun = store.begin("s1", 1, "change it", "write_file", "call-1", "sub/notes.txt");
            Files.writeString(workspace.resolve("sub/notes.txt"), "after\n");
            Checkpoint finished = store.finish(begun);
            RestorePlan plan = store.plan(List.of(finished));
            // A command moved the folder away and left a link in its place: nothing can be restored through it.
            Files.move(workspace.resolve("sub"), workspace.resolve("moved"));
            Files.createSymbolicLink(workspace.resolve("sub"), outside);

            CheckpointStore.Restored restored = Restores.restore(store, plan, List.of(finished), HostWrites.NONE);

            assertEquals(
                    new CheckpointStore.Restored(List.of(), Map.of("sub/notes.txt", "sub is a symbolic link")),
                    restored);
            assertEquals(List.of(finished), store.live("s1"));
        }
    }
}
