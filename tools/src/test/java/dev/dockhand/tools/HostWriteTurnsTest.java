package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.BackgroundProcess;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file tools write the host's files only in a turn of the sandbox's (see {@link HostWrites}), which a synced
 * sandbox's copy back holds while it writes: here the test holds it, as a copy back under way would.
 */
class HostWriteTurnsTest {
    @TempDir
    Path workspace;

    private final ReentrantLock turns = new ReentrantLock();

    /** A sandbox that runs nothing and whose turns at the host's files are {@link #turns}. */
    private final Sandbox synced = new Sandbox() {
        @Override
        public String kind() {
            return "docker";
        }

        @Override
        public ExecResult exec(ExecRequest request, OutputSink output, Cancellation cancel) throws IOException {
            return TestEnvironments.NO_COMMANDS.exec(request, output, cancel);
        }

        @Override
        public BackgroundProcess start(String command, Path directory, Path outputFolder) {
            throw new AssertionError("no command is started here");
        }

        @Override
        public HostWrites hostWrites() {
            return () -> {
                turns.lock();
                return turns::unlock;
            };
        }

        @Override
        public List<BackgroundProcess> background() {
            return List.of();
        }

        @Override
        public void close() {}
    };

    /**
     * Runs {@code write} on a thread of its own while the turn is held elsewhere; returns whether it waited for the
     * turn, the file's text when the turn was let go, and the file's text after the write.
     */
    private List<Object> whileTheTurnIsHeld(Supplier<ToolResult> write) throws Exception {
        Path notes = workspace.resolve("notes.txt");
        AtomicReference<ToolResult> result = new AtomicReference<>();
        turns.lock();
        Thread tool = new Thread(() -> result.set(write.get()));
        tool.start();
        while (!turns.hasQueuedThread(tool) && tool.isAlive()) {
            Thread.onSpinWait();
        }
        List<Object> seen = new ArrayList<>(List.of(tool.isAlive(), Files.readString(notes)));
        turns.unlock();
        tool.join();
        seen.add(Files.readString(notes));
        seen.add(result.get().isError());
        return seen;
    }

    @Test
    void editAndWriteFileWriteOnlyInTheirTurn() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "one\n");

        assertEquals(List.of(true, "one\n", "ONE\n", false), whileTheTurnIsHeld(() -> new EditTool()
                .execute(
                        new EditTool.Params("notes.txt", "one", "ONE", false),
                        TestEnvironments.context(workspace, synced))));
        assertEquals(List.of(true, "ONE\n", "two\n", false), whileTheTurnIsHeld(() -> new WriteFileTool()
                .execute(new WriteFileTool.Params("notes.txt", "two\n"), TestEnvironments.context(workspace, synced))));
    }
}
