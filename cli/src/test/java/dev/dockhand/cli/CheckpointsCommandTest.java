package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The "done when": a session's edit and command, then {@code dockhand checkpoints} lists and takes them back. */
public class CheckpointsCommandTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(cli.workspace.resolve("a.txt"), "as it was\n");
        Files.writeString(cli.workspace.resolve("c.txt"), "keep me\n");
    }

    /** The model edits a.txt, then runs a command that creates b.txt and deletes c.txt. */
    private void session() {
        cli.model.enqueue(calls(toolCall(
                "e1",
                "edit",
                "{\"path\":\"a.txt\",\"old_string\":\"as it was\",\"new_string\":\"changed by the model\"}")));
        cli.model.enqueue(
                calls(toolCall("x1", "run_shell_command", "{\"command\":\"echo made > b.txt && rm c.txt\"}")));
        cli.model.enqueue(answer("Done."));
        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "tidy up"));
        assertEquals("changed by the model\n", read("a.txt"));
        assertFalse(Files.exists(cli.workspace.resolve("c.txt")));
    }

    private String read(String name) {
        try {
            return Files.readString(cli.workspace.resolve(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private JsonNode listed() {
        int printed = cli.out.getBuffer().length();
        assertEquals(ExitCodes.OK, cli.run("checkpoints", "list", "--output-format", "json"));
        return Json.read(cli.out.getBuffer().substring(printed));
    }

    @Test
    void restoringTheFirstCheckpointBringsBackTheEditedAndDeletedFilesAndRemovesTheCreatedOne() {
        session();
        JsonNode list = listed();
        List<String> tools = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (JsonNode checkpoint : list) {
            tools.add(checkpoint.get("tool").asText());
            files.add(checkpoint.get("files").toString());
            assertEquals(List.of("id", "session_id", "time", "tool", "files"), iterable(checkpoint.fieldNames()));
        }
        assertEquals(List.of("edit", "run_shell_command"), tools);
        assertEquals(List.of("[\"a.txt\"]", "[\"b.txt\",\"c.txt\"]"), files);

        assertEquals(
                ExitCodes.OK,
                cli.run("checkpoints", "restore", list.get(0).get("id").asText(), "--yes"));

        assertEquals("as it was\n", read("a.txt"));
        assertEquals("keep me\n", read("c.txt"));
        assertFalse(Files.exists(cli.workspace.resolve("b.txt")));
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    @Test
    void withoutYesAndWithoutATerminalNothingIsRestored() {
        session();
        String first = listed().get(0).get("id").asText();

        assertEquals(
                ExitCodes.CONFIRMATION_REQUIRED,
                cli.run(java.io.InputStream.nullInputStream(), false, "checkpoints", "restore", first));

        assertEquals("changed by the model\n", read("a.txt"));
        assertEquals(
                "dockhand: nothing was restored: confirm with --yes when there is no terminal to ask on.",
                cli.errLines().get(cli.errLines().size() - 1));
    }

    @Test
    void onATerminalTheRestoreAsksWithTheFilesItWouldChange() {
        session();
        String first = listed().get(0).get("id").asText();
        int printed = cli.out.getBuffer().length();

        assertEquals(
                ExitCodes.OK,
                cli.run(
                        new ByteArrayInputStream("y\n".getBytes(StandardCharsets.UTF_8)),
                        true,
                        "checkpoints",
                        "restore",
                        first));

        assertEquals(
                List.of(
                        "Restoring to before " + first + " (edit: a.txt):",
                        "  restore  a.txt",
                        "  remove   b.txt",
                        "  restore  c.txt",
                        "Restore these files? [y/N] Restored 3 files."),
                cli.out.getBuffer().substring(printed).lines().toList());
        assertEquals("as it was\n", read("a.txt"));
    }

    @Test
    void theDiffShowsWhatChangedSinceACheckpoint() {
        session();
        String second = listed().get(1).get("id").asText();
        int printed = cli.out.getBuffer().length();

        assertEquals(ExitCodes.OK, cli.run("checkpoints", "diff", second));

        assertEquals(
                """
                diff --git a/b.txt b/b.txt
                new file mode 100644
                index 0000000..c5f1b8e
                --- /dev/null
                +++ b/b.txt
                @@ -0,0 +1 @@
                +made
                diff --git a/c.txt b/c.txt
                deleted file mode 100644
                index e0808fa..0000000
                --- a/c.txt
                +++ /dev/null
                @@ -1 +0,0 @@
                -keep me
                """,
                cli.out.getBuffer().substring(printed));
    }

    /** The model edits a file with CRLF line ends; returns the checkpoint before the edit. */
    private String crlfEdit() throws Exception {
        Files.writeString(cli.workspace.resolve("win.txt"), "one\r\ntwo\r\n");
        cli.model.enqueue(
                calls(toolCall("e1", "edit", "{\"path\":\"win.txt\",\"old_string\":\"two\",\"new_string\":\"2\"}")));
        cli.model.enqueue(answer("Done."));
        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "number it"));
        assertEquals("one\r\n2\r\n", read("win.txt"));
        return listed().get(0).get("id").asText();
    }

    @Test
    void theDiffWrittenToAFileKeepsACrlfFilesCarriageReturns() throws Exception {
        String first = crlfEdit();
        int printed = cli.out.getBuffer().length();
        cli.stdoutIsFile = true;

        assertEquals(ExitCodes.OK, cli.run("checkpoints", "diff", first));

        assertEquals(
                """
                diff --git a/win.txt b/win.txt
                index 4e349b5..796f136 100644
                --- a/win.txt
                +++ b/win.txt
                @@ -1,2 +1,2 @@
                 one\r
                -two\r
                +2\r
                """,
                cli.out.getBuffer().substring(printed));
    }

    @Test
    void onATerminalOrAPipeTheDiffLosesWhatTheTerminalWouldActOn() throws Exception {
        String first = crlfEdit();
        int printed = cli.out.getBuffer().length();

        assertEquals(ExitCodes.OK, cli.run("checkpoints", "diff", first));

        assertEquals(
                """
                diff --git a/win.txt b/win.txt
                index 4e349b5..796f136 100644
                --- a/win.txt
                +++ b/win.txt
                @@ -1,2 +1,2 @@
                 one
                -two
                +2
                """,
                cli.out.getBuffer().substring(printed));
    }

    @Test
    void aWrittenFileInANewFolderARenameAndAnExecutableBitAreTakenBackToo() throws Exception {
        Files.writeString(cli.workspace.resolve("d.txt"), "moving\n");
        Files.writeString(cli.workspace.resolve("run.sh"), "echo hi\n");
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"gen/deep/new.txt\",\"content\":\"written\\n\"}")));
        cli.model.enqueue(
                calls(toolCall("x1", "run_shell_command", "{\"command\":\"mv d.txt e.txt && chmod +x run.sh\"}")));
        cli.model.enqueue(answer("Done."));
        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "shuffle"));
        assertEquals(true, Files.isExecutable(cli.workspace.resolve("run.sh")));
        JsonNode list = listed();
        assertEquals("[\"gen/deep/new.txt\"]", list.get(0).get("files").toString());
        assertEquals(
                "[\"d.txt\",\"e.txt\",\"run.sh\"]", list.get(1).get("files").toString());

        assertEquals(
                ExitCodes.OK,
                cli.run("checkpoints", "restore", list.get(0).get("id").asText(), "--yes"));

        assertFalse(Files.exists(cli.workspace.resolve("gen")));
        assertFalse(Files.exists(cli.workspace.resolve("e.txt")));
        assertEquals("moving\n", read("d.txt"));
        assertFalse(Files.isExecutable(cli.workspace.resolve("run.sh")));
    }

    @Test
    void anUnknownCheckpointIsAUsageError() {
        session();

        assertEquals(ExitCodes.USAGE, cli.run("checkpoints", "restore", "nope", "--yes"));

        assertEquals(
                "dockhand: there is no checkpoint nope in this folder; list them with dockhand checkpoints list.",
                cli.errLines().get(cli.errLines().size() - 1));
    }

    @Test
    void withCheckpointsDisabledNoSnapshotIsTaken() throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), "{\"checkpoints\": {\"enabled\": false}}");
        session();

        assertEquals("[]", listed().toString());
        assertFalse(Files.exists(temp.resolve("home/checkpoints")));
    }

    @Test
    void aRunThatOnlyReadsNeverOpensTheCheckpoints() {
        cli.model.enqueue(calls(toolCall("r1", "read_file", "{\"path\":\"a.txt\"}")));
        cli.model.enqueue(answer("It says as it was."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "what does a.txt say?"));

        assertFalse(Files.exists(temp.resolve("home/checkpoints")));
    }

    @Test
    void aRestoreThatLeavesAFileOutRestoresTheRestSaysWhichAndExitsWithTheFailure() throws Exception {
        session();
        String first = listed().get(0).get("id").asText();
        // Since the session, a.txt became a folder holding a file no checkpoint recorded: it cannot go back.
        Files.delete(cli.workspace.resolve("a.txt"));
        Files.createDirectories(cli.workspace.resolve("a.txt"));
        Files.writeString(cli.workspace.resolve("a.txt/mine"), "by hand\n");
        int printed = cli.out.getBuffer().length();

        assertEquals(ExitCodes.CHECKPOINT_FAILED, cli.run("checkpoints", "restore", first, "--yes"));

        assertEquals(
                List.of(
                        "Restoring to before " + first + " (edit: a.txt):",
                        "  restore  a.txt   (changed since by hand: your change is overwritten)",
                        "  remove   b.txt",
                        "  restore  c.txt",
                        "Changed since the checkpoint, not by Dockhand: a.txt.",
                        "Restored 2 files.",
                        "  not restored  a.txt   (a.txt is a folder now, holding files no checkpoint recorded"
                                + " (a.txt/mine): left as it is)"),
                cli.out.getBuffer().substring(printed).lines().toList());
        assertEquals(
                "dockhand: the restore was partial: 1 file was not restored (above); once that is fixed, dockhand"
                        + " checkpoints restore " + first + " restores it.",
                cli.errLines().get(cli.errLines().size() - 1));
        assertEquals("keep me\n", read("c.txt"));
        assertFalse(Files.exists(cli.workspace.resolve("b.txt")));
        assertEquals("by hand\n", read("a.txt/mine"));
    }
}
