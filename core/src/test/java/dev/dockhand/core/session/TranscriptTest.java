package dev.dockhand.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A transcript that cannot be written is reported once, and the conversation goes on in memory. */
class TranscriptTest {
    @TempDir
    Path temp;

    private final List<String> problems = new ArrayList<>();

    private Conversation recordedTo(Path file) {
        Transcript transcript = Transcript.open(file, "s1", temp, "m", problems::add);
        Conversation conversation = new Conversation("SYSTEM");
        conversation.observe(transcript::record);
        return conversation;
    }

    private static void aRound(Conversation conversation) {
        conversation.addUser("hi");
        conversation.addAssistant(new Message.Assistant("", List.of(new ToolCall("c1", "echo", "{}"))));
        conversation.addToolResult(new Message.ToolResult("c1", "echo", "done", false));
        conversation.addAssistant(new Message.Assistant("bye", List.of()));
    }

    @Test
    void aNewTranscriptIsOwnerOnlyInOwnerOnlyFolders() throws Exception {
        Path file = temp.resolve("sessions/project/s1.jsonl");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m", problems::add)) {
            transcript.record(new Message.User("my AWS key is in .env"));
        }

        assertEquals(
                List.of("rw-------", "rwx------", "rwx------"),
                List.of(
                        permissions(file),
                        permissions(file.getParent()),
                        permissions(file.getParent().getParent())));
        assertEquals(List.of(), problems);
    }

    @Test
    void aStopHooksMessageReadsBackAsTheHooksAndIsNoTurnOfItsOwn() throws Exception {
        Path file = temp.resolve("sessions/project/s1.jsonl");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m", problems::add)) {
            transcript.record(new Message.User("fix it"));
            transcript.record(new Message.Assistant("Done.", List.of()));
            transcript.record(new Message.User("the tests fail", true));
            transcript.record(new Message.Assistant("Fixed.", List.of()));
        }

        Sessions.Loaded loaded = Sessions.read(file);

        assertEquals(
                List.of(
                        new Message.User("fix it"),
                        new Message.Assistant("Done.", List.of()),
                        new Message.User("the tests fail", true),
                        new Message.Assistant("Fixed.", List.of())),
                loaded.messages());
        assertEquals(List.of("fix it", "1"), List.of(loaded.lastPrompt(), String.valueOf(loaded.userTurns())));
    }

    private static String permissions(Path path) throws Exception {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void aFullDiskIsReportedOnceAndTheConversationGoesOn() throws Exception {
        Path full = temp.resolve("session.jsonl");
        // Every write to /dev/full fails with "No space left on device", as on a full disk.
        Files.createSymbolicLink(full, Path.of("/dev/full"));
        Conversation conversation = recordedTo(full);

        aRound(conversation);

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(
                problems.get(0).startsWith("the session transcript " + full + " cannot be written ("), problems.get(0));
        assertTrue(problems.get(0).endsWith("); this session goes on in memory and cannot be resumed later."));
        assertEquals(5, conversation.messages().size());
    }

    @Test
    void aFolderThatCannotBeCreatedIsReportedOnce() throws Exception {
        // A file where the sessions folder should be: even root cannot create a folder under it.
        Files.writeString(temp.resolve("sessions"), "not a folder");
        Conversation conversation = recordedTo(temp.resolve("sessions/ws/s1.jsonl"));

        aRound(conversation);

        assertEquals(1, problems.size(), problems.toString());
        assertEquals(5, conversation.messages().size());
    }
}
