package dev.dockhand.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.testing.ToolImages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session's tool-result images on disk: small ones inline, large ones once beside the transcript. */
class SessionImagesTest {
    @TempDir
    Path temp;

    /** 40 KB that start as a PNG does: past the inline limit. */
    private static final Image LARGE = Image.of("image/png", large());

    private static byte[] large() {
        byte[] bytes = new byte[40 * 1024];
        Arrays.fill(bytes, (byte) 7);
        System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, 0, bytes, 0, 8);
        return bytes;
    }

    private Path record(List<Message> rounds) {
        Path file = new Sessions(temp.resolve("home"), temp).file("s1");
        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Conversation conversation = new Conversation("SYSTEM");
            conversation.observe(transcript::record);
            for (Message message : rounds) {
                if (message instanceof Message.User user) {
                    conversation.addUser(user);
                } else if (message instanceof Message.Assistant assistant) {
                    conversation.addAssistant(assistant);
                } else {
                    conversation.addToolResult((Message.ToolResult) message);
                }
            }
        }
        return file;
    }

    private static List<Message> twoScreenshots() {
        return List.of(
                new Message.User("look twice"),
                new Message.Assistant("", List.of(new ToolCall("c1", "shot", "{}"), new ToolCall("c2", "shot", "{}"))),
                new Message.ToolResult("c1", "shot", "first", false, List.of(LARGE, ToolImages.PNG)),
                new Message.ToolResult("c2", "shot", "second", true, List.of(LARGE)),
                new Message.Assistant("Same page twice.", List.of()));
    }

    private static List<JsonNode> results(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .map(Json::read)
                .filter(line -> line.path("type").asText().equals("tool_result"))
                .toList();
    }

    @Test
    void aResumedSessionHasTheSameImagesSoItsRequestsAreTheSame() throws IOException {
        Path file = record(twoScreenshots());
        Conversation resumed = new Conversation("SYSTEM");

        try (Transcript transcript = Transcript.open(file, "s1", temp, "m")) {
            Sessions.resume(file, resumed, transcript);
        }

        // The writers are functions of the messages: equal messages make the same request bytes.
        List<Message> expected = new java.util.ArrayList<>();
        expected.add(new Message.System("SYSTEM"));
        expected.addAll(twoScreenshots());
        assertEquals(expected, resumed.messages());
    }

    @Test
    void aLargeImageIsStoredOnceBesideTheTranscriptAndASmallOneInline() throws IOException {
        Path file = record(twoScreenshots());
        Path folder = file.resolveSibling("s1.images");

        String stored = "{\"mime_type\":\"image/png\",\"sha256\":\"" + LARGE.sha256() + "\",\"bytes\":40960}";
        assertEquals(
                List.of(
                        Json.read("{\"type\":\"tool_result\",\"id\":\"c1\",\"name\":\"shot\",\"content\":\"first\","
                                + "\"error\":false,\"images\":[" + stored + ",{\"mime_type\":\"image/png\",\"data\":\""
                                + ToolImages.PNG_BASE64 + "\"}]}"),
                        Json.read("{\"type\":\"tool_result\",\"id\":\"c2\",\"name\":\"shot\",\"content\":\"second\","
                                + "\"error\":true,\"images\":[" + stored + "]}")),
                results(file));
        try (Stream<Path> files = Files.list(folder)) {
            assertEquals(List.of(folder.resolve(LARGE.sha256())), files.toList());
        }
        assertEquals(
                List.of(LARGE), List.of(Image.of("image/png", Files.readAllBytes(folder.resolve(LARGE.sha256())))));
    }

    @Test
    void anImageWhoseFileIsGoneIsDescribedAndTheRestResumes() throws IOException {
        Path file = record(twoScreenshots());
        Files.delete(file.resolveSibling("s1.images").resolve(LARGE.sha256()));

        List<Message> read = Sessions.read(file).messages();

        assertEquals(
                List.of(
                        new Message.ToolResult(
                                "c1",
                                "shot",
                                "first\n[image: image/png, 40960 bytes, not shown: its copy in the session files is"
                                        + " gone]",
                                false,
                                List.of(ToolImages.PNG)),
                        new Message.ToolResult(
                                "c2",
                                "shot",
                                "second\n[image: image/png, 40960 bytes, not shown: its copy in the session files is"
                                        + " gone]",
                                true,
                                List.of())),
                read.subList(2, 4));
    }

    @Test
    void anImageFileReplacedByALinkIsNotFollowedOnResume() throws IOException {
        Path file = record(twoScreenshots());
        Path stored = file.resolveSibling("s1.images").resolve(LARGE.sha256());
        // A copied session folder whose image is a link elsewhere (to /dev/zero, or a FIFO) must not be read.
        Path elsewhere = Files.write(temp.resolve("elsewhere.png"), large());
        Files.delete(stored);
        Files.createSymbolicLink(stored, elsewhere);

        List<Message> read = Sessions.read(file).messages();

        assertEquals(
                List.of(
                        "first\n[image: image/png, 40960 bytes, not shown: its copy in the session files is gone]",
                        "second\n[image: image/png, 40960 bytes, not shown: its copy in the session files is gone]"),
                read.subList(2, 4).stream()
                        .map(message -> ((Message.ToolResult) message).content())
                        .toList());
    }
}
