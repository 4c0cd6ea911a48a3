package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.core.sandbox.HostWrites;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy back after a cancelled command runs on a thread of its own, while the file tools go on writing the host's
 * files: the two take turns (see {@link HostWriteLock}), so neither writes over the other. The container is a folder
 * here ({@link FolderContainerFiles}), so the copy back can be held at the worst moment: after it found the host's
 * file as last synced, while it writes it.
 */
class SyncedWorkspaceTurnsTest {
    @TempDir
    Path workspace;

    @TempDir
    Path box;

    @BeforeEach
    void realPaths() throws IOException {
        workspace = workspace.toRealPath();
    }

    @Test
    void aFileToolsEditWaitsForTheCopyBackUnderWayAndIsMadeOnWhatItBrought() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "one\ntwo\n");
        SyncedWorkspace synced = new SyncedWorkspace(
                ContainerSpec.of(DockerSettings.DEFAULT, workspace, List.of(), Map.of(), HostIdentity.current()),
                SyncLimits.DEFAULT,
                List::of);
        FolderContainerFiles container = new FolderContainerFiles(box);
        synced.started(container);
        // The cancelled command had added a line in the container.
        Files.writeString(box.resolve("notes.txt"), "one\ntwo\nthree\n");

        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        container.content(in -> new HeldAtFirstRead(in, writing, resume));
        synced.afterCommandInBackground(container);
        writing.await();

        // As EditTool does: read, change, write, all within its turn.
        Thread tool = new Thread(() -> {
            try (HostWrites.Turn turn = synced.hostWrites().take()) {
                Path notes = workspace.resolve("notes.txt");
                Files.writeString(notes, Files.readString(notes).replace("one", "ONE"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        tool.start();
        // Until the tool waits for its turn (or, were there no turns, has written): no sleep, no timing.
        while (!synced.hostWrites().waiting(tool) && tool.isAlive()) {
            Thread.onSpinWait();
        }
        boolean toolWaited = tool.isAlive();
        resume.countDown();
        tool.join();
        synced.settle();

        assertEquals(
                List.of(true, "ONE\ntwo\nthree\n"),
                List.of(toolWaited, Files.readString(workspace.resolve("notes.txt"))));
        // The next command's sync finds the tool's edit as a change of the host's, to copy in.
        synced.beforeCommand(container);
        assertEquals("ONE\ntwo\nthree\n", Files.readString(box.resolve("notes.txt")));
        assertFalse(synced.hostWrites().waiting(tool));
    }

    /** Content whose first read says so and then waits to be let go on. */
    private static final class HeldAtFirstRead extends FilterInputStream {
        private final CountDownLatch reached;
        private final CountDownLatch resume;

        HeldAtFirstRead(InputStream in, CountDownLatch reached, CountDownLatch resume) {
            super(in);
            this.reached = reached;
            this.resume = resume;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (reached.getCount() > 0) {
                reached.countDown();
                try {
                    resume.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            return super.read(buffer, offset, length);
        }
    }
}
