package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.core.checkpoint.CheckpointStore;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code /undo} says when it could not restore every file. */
public class ReplUndoOutcomeTest extends CliTest {
    @Test
    void undoThatLeavesAFileOutSaysWhichAndHowToTakeItBackLater() throws Exception {
        Files.writeString(cli.workspace.resolve("a.txt"), "as it was\n");
        Files.writeString(cli.workspace.resolve("c.txt"), "keep me\n");
        cli.model.enqueue(
                calls(toolCall(
                        "e1",
                        "edit",
                        "{\"path\":\"a.txt\",\"old_string\":\"as it was\",\"new_string\":\"changed by the model\"}")),
                calls(toolCall("x1", "run_shell_command", "{\"command\":\"echo made > b.txt && rm c.txt\"}")),
                answer("Tidied."));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("tidy up");
            repl.await("Tidied.");
            repl.awaitPrompt();
            // a.txt became a folder holding a file no checkpoint recorded: it cannot go back.
            Files.delete(cli.workspace.resolve("a.txt"));
            Files.createDirectories(cli.workspace.resolve("a.txt"));
            Files.writeString(cli.workspace.resolve("a.txt/mine"), "by hand\n");
            String first;
            try (CheckpointStore store =
                    CheckpointStore.open(temp.resolve("home/checkpoints"), cli.workspace, 1 << 20, List.of())) {
                first = store.list().get(0).id();
            }
            repl.submit("/undo");
            repl.await("Restore these files? [y/n]");
            repl.type("y");
            repl.await("restores it.");

            List<String> said = List.of(
                    "✓ restored 2 files",
                    "  not restored  a.txt   (a.txt is a folder now, holding files no checkpoint recorded (a.txt/mine):"
                            + " left as it is)",
                    "1 file was not restored (above); once that is fixed, dockhand checkpoints restore " + first
                            + " restores it.");
            List<String> rows = new ArrayList<>();
            said.forEach(line -> rows.addAll(wrapped(line)));
            assertEquals(rows, repl.rowsFrom("✓ restored").subList(0, rows.size()));
            assertEquals("keep me\n", Files.readString(cli.workspace.resolve("c.txt")));
            assertFalse(Files.exists(cli.workspace.resolve("b.txt")));
        }
    }

    /** A line as the screen shows it, cut into rows of the terminal's width. */
    private static List<String> wrapped(String line) {
        List<String> rows = new ArrayList<>();
        for (int start = 0; start < line.length(); start += ReplHarness.WIDTH) {
            rows.add(line.substring(start, Math.min(line.length(), start + ReplHarness.WIDTH)));
        }
        return rows;
    }
}
