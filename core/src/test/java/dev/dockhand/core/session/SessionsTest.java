package dev.dockhand.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionsTest {
    @TempDir
    Path temp;

    private final ToolCall call = new ToolCall("c1", "run_shell_command", "{\"command\":\"make\"}");

    private Path recordACrashMidRound(Sessions sessions) {
        Path file = sessions.file("s1");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation conversation = new Conversation("SYSTEM");
            conversation.observe(transcript::record);
            conversation.addUser("build it");
            conversation.addAssistant(new Message.Assistant("Building.", List.of(call)));
        }
        return file;
    }

    @Test
    void resumingAnsweresCallsACrashLeftOpenSoTheHistoryIsValid() {
        Sessions sessions = new Sessions(temp.resolve("home"), temp);
        Path file = recordACrashMidRound(sessions);
        Conversation resumed = new Conversation("NEW SYSTEM");

        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Sessions.Loaded loaded = Sessions.resume(file, resumed, transcript);
            assertEquals(List.of(call), loaded.repaired());
        }

        assertEquals(
                List.of(
                        new Message.System("NEW SYSTEM"),
                        new Message.User("build it"),
                        new Message.Assistant("Building.", List.of(call)),
                        new Message.ToolResult("c1", "run_shell_command", Sessions.INTERRUPTED, true)),
                resumed.messages());
        assertEquals(
                List.of(
                        new Message.User("build it"),
                        new Message.Assistant("Building.", List.of(call)),
                        new Message.ToolResult("c1", "run_shell_command", Sessions.INTERRUPTED, true)),
                Sessions.read(file).messages());
    }

    @Test
    void reasoningAndProviderStateSurviveAResumeUnchanged() {
        Sessions sessions = new Sessions(temp.resolve("home"), temp);
        Path file = sessions.file("s2");
        Message.Assistant signed = new Message.Assistant(
                "",
                List.of(call),
                "The user wants a build; make is the tool.",
                new ProviderState("gemini", "{\"parts\":[{\"thoughtSignature\":\"CiQB0e2K\"}]}"));
        try (Transcript transcript = Transcript.open(file, "s2", temp, "m")) {
            Conversation conversation = new Conversation("SYSTEM");
            conversation.observe(transcript::record);
            conversation.addUser("build it");
            conversation.addAssistant(signed);
            conversation.addToolResult(new Message.ToolResult("c1", "run_shell_command", "ok", false));
        }

        assertEquals(
                List.of(
                        new Message.User("build it"),
                        signed,
                        new Message.ToolResult("c1", "run_shell_command", "ok", false)),
                Sessions.read(file).messages());
    }

    @Test
    void aCutLastLineIsSkipped() throws Exception {
        Sessions sessions = new Sessions(temp.resolve("home"), temp);
        Path file = recordACrashMidRound(sessions);
        Files.writeString(file, "{\"type\":\"tool_res", StandardOpenOption.APPEND);

        Sessions.Loaded loaded = Sessions.read(file);

        assertEquals(true, loaded.cutLastLine());
        assertEquals(2, loaded.messages().size());
    }

    @Test
    void aSessionResumedAfterACutLineKeepsWhatTheResumeSaidAtTheNextResume() throws Exception {
        Sessions sessions = new Sessions(temp.resolve("home"), temp);
        Path file = sessions.file("s1");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation conversation = new Conversation("SYSTEM");
            conversation.observe(transcript::record);
            conversation.addUser("first");
        }
        // Killed while writing the next record.
        Files.writeString(file, "{\"type\":\"assis", StandardOpenOption.APPEND);
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation resumed = new Conversation("SYSTEM");
            assertEquals(true, Sessions.resume(file, resumed, transcript).cutLastLine());
            resumed.addUser("second");
            resumed.addUser("third");
        }

        Sessions.Loaded again = Sessions.read(file);

        assertEquals(
                List.of(
                        new Message.User("first", false),
                        new Message.User("second", false),
                        new Message.User("third", false)),
                again.messages());
        // Said at the resume that repaired it, not again at every later one.
        assertEquals(false, again.cutLastLine());
        assertEquals(
                List.of("{\"type\":\"assis", "{\"type\":\"resumed_after_cut\"}"),
                Files.readAllLines(file).subList(2, 4));
    }

    @Test
    void aCutLineAnOlderVersionGluedItsResumeOntoEndsWhatIsReadUntilAResumeMarksWhereItWentOn() throws Exception {
        Sessions sessions = new Sessions(temp.resolve("home"), temp);
        Path file = sessions.file("s1");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation conversation = new Conversation("SYSTEM");
            conversation.observe(transcript::record);
            conversation.addUser("first");
        }
        Files.writeString(
                file,
                "{\"type\":\"assis{\"type\":\"user\",\"text\":\"glued\"}\n"
                        + "{\"type\":\"tool_result\",\"id\":\"c1\",\"name\":\"x\",\"content\":\"\"}\n",
                StandardOpenOption.APPEND);

        Sessions.Loaded loaded = Sessions.read(file);

        assertEquals(List.of(new Message.User("first", false)), loaded.messages());
        assertEquals(true, loaded.cutLastLine());

        // A resume now goes on from "first", and what it says is read at the next resume.
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation resumed = new Conversation("SYSTEM");
            assertEquals(true, Sessions.resume(file, resumed, transcript).cutLastLine());
            resumed.addUser("second");
        }
        Sessions.Loaded again = Sessions.read(file);
        assertEquals(List.of(new Message.User("first", false), new Message.User("second", false)), again.messages());
        assertEquals(false, again.cutLastLine());
    }

    @Test
    void listsSessionsNewestFirstWithTheirLastPrompt() {
        Sessions sessions = new Sessions(temp.resolve("home"), temp);
        recordACrashMidRound(sessions);

        List<Sessions.Summary> listed = sessions.list();

        assertEquals(1, listed.size());
        assertEquals("s1", listed.get(0).id());
        assertEquals("build it", listed.get(0).lastPrompt());
        assertEquals(1, listed.get(0).turns());
        assertEquals(java.util.Optional.of("s1"), sessions.find("latest"));
    }
}
