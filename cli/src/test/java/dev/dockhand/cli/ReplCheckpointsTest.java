package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.session.Sessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The "done when" in the REPL: an edit and a command taken back with /undo, and with /rewind. */
public class ReplCheckpointsTest extends CliTest {
    /**
     * Loads and starts JGit once for the class: on a loaded machine that takes seconds, which the first test's
     * screen waits (made for the REPL's own latency) should not have to cover.
     */
    @org.junit.jupiter.api.BeforeAll
    static void loadTheStore(@TempDir Path scratch) throws Exception {
        Path workspace = Files.createDirectories(scratch.resolve("w"));
        Files.writeString(workspace.resolve("f.txt"), "x");
        try (dev.dockhand.core.checkpoint.CheckpointStore store = dev.dockhand.core.checkpoint.CheckpointStore.open(
                scratch.resolve("checkpoints"), workspace, 1000, List.of())) {
            store.finish(store.begin("s", 0, "", "edit", "c", ""));
            store.plan(store.list());
        }
    }

    @BeforeEach
    void harness() throws Exception {
        Files.writeString(cli.workspace.resolve("a.txt"), "as it was\n");
        Files.writeString(cli.workspace.resolve("c.txt"), "keep me\n");
    }

    /** The model's reply to "tidy up": it edits a.txt, then a command creates b.txt and deletes c.txt. */
    private void scriptTidyUp() {
        cli.model.enqueue(
                calls(toolCall(
                        "e1",
                        "edit",
                        "{\"path\":\"a.txt\",\"old_string\":\"as it was\",\"new_string\":\"changed by the model\"}")),
                calls(toolCall("x1", "run_shell_command", "{\"command\":\"echo made > b.txt && rm c.txt\"}")),
                answer("Tidied."));
    }

    private String read(String name) {
        try {
            return Files.readString(cli.workspace.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void assertRestored() {
        assertEquals("as it was\n", read("a.txt"));
        assertEquals("keep me\n", read("c.txt"));
        assertFalse(Files.exists(cli.workspace.resolve("b.txt")));
    }

    @Test
    void undoAsksWithTheFilesThenRestoresWhatTheLastTurnChanged() throws Exception {
        scriptTidyUp();
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("tidy up");
            repl.await("Tidied.");
            repl.awaitPrompt();
            repl.submit("/undo");
            repl.await("Restore these files? [y/n]");

            assertEquals(
                    List.of(
                            "Undo the changes of the turn \"tidy up\":",
                            "  restore  a.txt",
                            "  remove   b.txt",
                            "  restore  c.txt",
                            "  Restore these files? [y/n]"),
                    repl.rowsFrom("Undo the changes").subList(0, 5));
            assertEquals("changed by the model\n", read("a.txt"));
            repl.type("y");
            repl.await("✓ restored 3 files");
            assertRestored();

            repl.awaitPrompt();
            repl.submit("/undo");
            repl.await("Nothing to undo");
        }
    }

    @Test
    void undoNamesAFileChangedByHandSinceBeforeOverwritingIt() throws Exception {
        scriptTidyUp();
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("tidy up");
            repl.await("Tidied.");
            repl.awaitPrompt();
            Files.writeString(cli.workspace.resolve("a.txt"), "my own edit\n");
            repl.submit("/undo");
            repl.await("Restore these files? [y/n]");

            assertEquals(
                    List.of(
                            "  restore  a.txt   (changed since by hand: your change is overwritten)",
                            "  remove   b.txt",
                            "  restore  c.txt",
                            "Changed since the checkpoint, not by Dockhand: a.txt."),
                    repl.rowsFrom("Undo the changes").subList(1, 5));
            repl.type("n");
            repl.await("nothing was restored");
            assertEquals("my own edit\n", read("a.txt"));
        }
    }

    @Test
    void rewindRestoresFilesAndConversationAndTheNextRequestAndAResumeSeeTheCut() throws Exception {
        cli.model.enqueue(answer("First answer."));
        scriptTidyUp();
        cli.model.enqueue(answer("Starting over."));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("first question");
            repl.await("First answer.");
            repl.awaitPrompt();
            repl.submit("tidy up");
            repl.await("Tidied.");
            repl.awaitPrompt();
            repl.submit("/rewind");
            repl.await("/rewind N goes back");
            assertEquals(
                    List.of("1. first question", "2. tidy up"),
                    repl.rowsFrom("1. first question").subList(0, 2));

            repl.awaitPrompt();
            repl.submit("/rewind 2");
            repl.await("[b] both  [Esc] cancel");
            assertEquals(
                    List.of(
                            "Rewind to before turn 2 \"tidy up\":",
                            "  restore  a.txt",
                            "  remove   b.txt",
                            "  restore  c.txt",
                            "  [f] files  [c] conversation  [b] both  [Esc] cancel"),
                    repl.rowsFrom("Rewind to before turn 2").subList(0, 5));
            repl.type("b");
            repl.await("the conversation is back to before");
            assertRestored();

            repl.awaitPrompt();
            repl.submit("start again");
            repl.await("Starting over.");
            for (int i = 0; i < 4; i++) {
                cli.model.takeRequest();
            }
            // ScriptedModel checks every request against the wire's rules: this one is a valid conversation.
            assertEquals(
                    List.of("user: first question", "assistant: First answer.", "user: start again"),
                    messages(cli.model.takeRequest()));
        }

        Path transcript;
        try (Stream<Path> files = Files.walk(temp.resolve("home/sessions"))) {
            transcript = files.filter(file -> file.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow();
        }
        assertEquals(
                List.of(
                        new Message.User("first question"),
                        new Message.Assistant("First answer.", List.of()),
                        new Message.User("start again"),
                        new Message.Assistant("Starting over.", List.of())),
                Sessions.read(transcript).messages());
        // The transcript keeps what was said before the rewind: the lines are never deleted.
        assertEquals(
                1L,
                Files.readAllLines(transcript).stream()
                        .filter(line -> line.contains("\"text\":\"tidy up\""))
                        .count());
    }

    @Test
    void aStopHooksMessageStaysInTheTurnSoUndoTakesBackTheCallsBeforeAndAfterIt() throws Exception {
        // Sends the model back once, then lets the turn end; its mark lies outside the workspace.
        String once = "test -f " + temp.resolve("sent-back") + " && exit 0; touch " + temp.resolve("sent-back")
                + "; echo 'the tests fail' >&2; exit 2";
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(
                temp.resolve("home/settings.json"),
                "{\"hooks\": {\"Stop\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": "
                        + dev.dockhand.core.Json.write(once) + "}]}]}}");
        cli.model.enqueue(
                calls(toolCall(
                        "e1",
                        "edit",
                        "{\"path\":\"a.txt\",\"old_string\":\"as it was\",\"new_string\":\"changed by the model\"}")),
                answer("Done, I think."),
                calls(toolCall("x1", "run_shell_command", "{\"command\":\"echo made > b.txt && rm c.txt\"}")),
                answer("Tidied."));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("tidy up");
            repl.await("Tidied.");
            repl.awaitPrompt();
            repl.submit("/rewind");
            repl.await("/rewind N goes back");
            assertEquals(
                    List.of(
                            "1. tidy up",
                            "/rewind N goes back to before turn N: its files, the conversation, or both."),
                    repl.rowsFrom("1. tidy up").subList(0, 2));

            repl.awaitPrompt();
            repl.submit("/undo");
            repl.await("Restore these files? [y/n]");
            assertEquals(
                    List.of(
                            "Undo the changes of the turn \"tidy up\":",
                            "  restore  a.txt",
                            "  remove   b.txt",
                            "  restore  c.txt",
                            "  Restore these files? [y/n]"),
                    repl.rowsFrom("Undo the changes").subList(0, 5));
            repl.type("y");
            repl.await("✓ restored 3 files");
            assertRestored();
        }
    }
}
