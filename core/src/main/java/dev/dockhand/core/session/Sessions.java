package dev.dockhand.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The sessions of one workspace, under {@code <home>/sessions/<workspace-id>/}: listing them, and reading one back
 * into a conversation. A transcript that ends with tool calls lacking results (a crash mid-round) is repaired by
 * answering them as interrupted, so the next request is valid; a cut last line is skipped with a warning.
 */
public final class Sessions {
    static final String INTERRUPTED = "Not run to the end: Dockhand stopped (it was killed or crashed) before this"
            + " call finished. Check the workspace before relying on what it did.";

    private final Path folder;

    public Sessions(Path home, Path workspace) {
        this.folder = home.resolve("sessions").resolve(workspaceId(workspace));
    }

    /** A short, stable, file-name-safe id of a workspace path: its name and a hash. */
    public static String workspaceId(Path workspace) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(workspace.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
            String name = workspace.getFileName() == null
                    ? "root"
                    : workspace.getFileName().toString();
            return name.replaceAll("[^A-Za-z0-9._-]", "_") + "-"
                    + HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Path file(String sessionId) {
        return folder.resolve(sessionId + ".jsonl");
    }

    /** One listed session. */
    public record Summary(String id, String started, String lastPrompt, int turns) {}

    /** The workspace's sessions, newest first. */
    public List<Summary> list() {
        List<Summary> summaries = new ArrayList<>();
        for (Path file : transcripts()) {
            Loaded loaded = read(file);
            summaries.add(new Summary(id(file), loaded.started(), loaded.lastPrompt(), loaded.userTurns()));
        }
        return summaries;
    }

    /** The workspace's transcript files, newest first. */
    private List<Path> transcripts() {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.toString().endsWith(".jsonl"))
                    .sorted(Comparator.reverseOrder())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String id(Path transcript) {
        return transcript.getFileName().toString().replace(".jsonl", "");
    }

    /** The id of {@code wanted}, or of the newest session for "latest"; empty when there is none. */
    public Optional<String> find(String wanted) {
        if (wanted.equals("latest")) {
            // Session ids begin with their start time, so the newest is the greatest name; no file is read.
            return transcripts().stream().findFirst().map(Sessions::id);
        }
        return Files.isRegularFile(file(wanted)) ? Optional.of(wanted) : Optional.empty();
    }

    /** A transcript read back: its messages, and what had to be repaired or skipped. */
    public record Loaded(
            List<Message> messages,
            String started,
            String lastPrompt,
            int userTurns,
            List<ToolCall> repaired,
            boolean cutLastLine) {}

    /** The record a resume writes after a line cut short, before its own records. */
    static final String AFTER_CUT = "resumed_after_cut";

    private static boolean afterCut(String line) {
        try {
            return AFTER_CUT.equals(Json.MAPPER.readTree(line).path("type").asText());
        } catch (IOException e) {
            return false;
        }
    }

    public static Loaded read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the session transcript " + file, e);
        }
        List<Message> messages = new ArrayList<>();
        SessionImages images = new SessionImages(file);
        String started = "";
        String lastPrompt = "";
        int turns = 0;
        boolean cut = false;
        for (int i = 0; i < lines.size(); i++) {
            JsonNode record;
            try {
                record = Json.MAPPER.readTree(lines.get(i));
            } catch (IOException e) {
                // A line cut short by a process killed while writing it. What a resume read ended there, and the
                // resume wrote its records behind a marker: they follow on from the lines before the cut, so reading
                // goes on after the first marker past it (and the cut was reported at that resume). What lies between
                // is what an older version glued on, which its resume never read either. No marker: the end.
                int marker = i + 1;
                while (marker < lines.size() && !afterCut(lines.get(marker))) {
                    marker++;
                }
                if (marker < lines.size()) {
                    i = marker;
                    continue;
                }
                cut = true;
                break;
            }
            switch (record.path("type").asText()) {
                case "session" -> started = record.path("started").asText();
                case "user" -> {
                    boolean fromHook = record.path("hook").asBoolean(false);
                    if (!fromHook) {
                        lastPrompt = record.path("text").asText();
                        turns++;
                    }
                    messages.add(new Message.User(record.path("text").asText(), fromHook));
                }
                case "assistant" -> {
                    List<ToolCall> calls = new ArrayList<>();
                    record.path("tool_calls")
                            .forEach(call -> calls.add(new ToolCall(
                                    call.path("id").asText(),
                                    call.path("name").asText(),
                                    call.path("arguments").asText())));
                    JsonNode state = record.path("provider_state");
                    messages.add(new Message.Assistant(
                            record.path("text").asText(),
                            calls,
                            record.path("reasoning").asText(""),
                            state.isObject()
                                    ? new ProviderState(
                                            state.path("wire").asText(""),
                                            state.path("json").asText(""))
                                    : ProviderState.NONE));
                }
                case "tool_result" -> messages.add(toolResult(record, images));
                case "rewind" -> {
                    // The conversation was cut before a user message (/rewind): what came after it is not replayed.
                    int kept = Math.min(record.path("kept_messages").asInt(), messages.size());
                    messages.subList(kept, messages.size()).clear();
                    turns = (int) messages.stream()
                            .filter(message -> message instanceof Message.User user && !user.fromHook())
                            .count();
                    lastPrompt = messages.stream()
                            .filter(message -> message instanceof Message.User user && !user.fromHook())
                            .map(message -> ((Message.User) message).text())
                            .reduce("", (earlier, later) -> later);
                }
                default -> {
                    // Records of later versions are passed over.
                }
            }
        }
        return new Loaded(List.copyOf(messages), started, lastPrompt, turns, List.of(), cut);
    }

    /**
     * A recorded result with its images; an image whose stored copy is gone is described in the text instead, so the
     * rest of the session still resumes.
     */
    private static Message.ToolResult toolResult(JsonNode record, SessionImages images) {
        StringBuilder content = new StringBuilder(record.path("content").asText());
        List<Image> loaded = new ArrayList<>();
        for (JsonNode stored : record.path("images")) {
            Optional<Image> image = images.load(stored);
            if (image.isPresent()) {
                loaded.add(image.get());
            } else {
                content.append(content.length() == 0 ? "" : "\n").append(SessionImages.lost(stored));
            }
        }
        return new Message.ToolResult(
                record.path("id").asText(),
                record.path("name").asText(),
                content.toString(),
                record.path("error").asBoolean(),
                loaded);
    }

    /**
     * Replays a transcript into a new conversation with today's system prompt, answering calls a crash left
     * unanswered; the repairs are also written to {@code transcript}, so the file stays consistent.
     */
    public static Loaded resume(Path file, Conversation conversation, Transcript transcript) {
        Loaded loaded = read(file);
        if (loaded.cutLastLine()) {
            transcript.resumingAfterCut();
        }
        for (Message message : loaded.messages()) {
            if (message instanceof Message.User user) {
                repair(conversation, transcript, new ArrayList<>());
                conversation.addUser(user.text());
            } else if (message instanceof Message.Assistant assistant) {
                repair(conversation, transcript, new ArrayList<>());
                conversation.addAssistant(assistant);
            } else if (message instanceof Message.ToolResult result) {
                conversation.addToolResult(result);
            }
        }
        List<ToolCall> repaired = new ArrayList<>();
        repair(conversation, transcript, repaired);
        conversation.observe(transcript::record);
        return new Loaded(
                loaded.messages(),
                loaded.started(),
                loaded.lastPrompt(),
                loaded.userTurns(),
                List.copyOf(repaired),
                loaded.cutLastLine());
    }

    private static void repair(Conversation conversation, Transcript transcript, List<ToolCall> repaired) {
        for (ToolCall call : conversation.answerPending(INTERRUPTED)) {
            transcript.record(new Message.ToolResult(call.id(), call.name(), INTERRUPTED, true));
            repaired.add(call);
        }
    }
}
