package dev.dockhand.core.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checkpoints' metadata, one JSON object a line, appended as things happen: a {@code checkpoint} line before the
 * call runs, a {@code changes} line once it finished (so a call Dockhand never saw finish is still there, without its
 * changes), and a {@code cut} line when an undo or a rewind takes a session's later turns back. A cut last line (a
 * process killed while writing) is skipped.
 */
final class CheckpointLog {
    private final Path file;

    /**
     * Checkpoints of {@code sessionId} at turn {@code turn} or later, taken from {@code since} until {@code time}, are
     * taken back.
     */
    record Cut(String sessionId, int turn, Instant since, Instant time) {
        boolean covers(Checkpoint checkpoint) {
            return checkpoint.sessionId().equals(sessionId)
                    && checkpoint.turn() >= turn
                    && !checkpoint.time().isBefore(since)
                    && !checkpoint.time().isAfter(time);
        }
    }

    record Contents(List<Checkpoint> checkpoints, List<Cut> cuts) {}

    CheckpointLog(Path file) {
        this.file = file;
    }

    void began(Checkpoint checkpoint) throws IOException {
        append(beganLine(checkpoint));
    }

    void finished(Checkpoint checkpoint) throws IOException {
        append(changesLine(checkpoint));
    }

    private static ObjectNode changesLine(Checkpoint checkpoint) {
        ObjectNode line = Json.object()
                .put("type", "changes")
                .put("id", checkpoint.id())
                .put("after", checkpoint.after().orElseThrow());
        checkpoint.files().forEach(line.putArray("files")::add);
        return line;
    }

    void cut(Cut cut) throws IOException {
        append(cutLine(cut));
    }

    private static ObjectNode cutLine(Cut cut) {
        return Json.object()
                .put("type", "cut")
                .put("session_id", cut.sessionId())
                .put("turn", cut.turn())
                .put("since", cut.since().toString())
                .put("time", cut.time().toString());
    }

    Contents read() throws IOException {
        if (!Files.exists(file)) {
            return new Contents(List.of(), List.of());
        }
        Map<String, Checkpoint> checkpoints = new LinkedHashMap<>();
        List<Cut> cuts = new ArrayList<>();
        for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            JsonNode line;
            try {
                line = Json.MAPPER.readTree(text);
            } catch (IOException e) {
                continue;
            }
            switch (line.path("type").asText()) {
                case "checkpoint" -> checkpoints.put(
                        line.path("id").asText(),
                        new Checkpoint(
                                line.path("id").asText(),
                                line.path("session_id").asText(),
                                Instant.parse(line.path("time").asText()),
                                line.path("turn").asInt(),
                                line.path("user_message").asText(),
                                line.path("tool").asText(),
                                line.path("call_id").asText(),
                                line.path("summary").asText(),
                                line.path("before").asText(),
                                Optional.empty(),
                                List.of()));
                case "changes" -> {
                    Checkpoint began = checkpoints.get(line.path("id").asText());
                    if (began != null) {
                        List<String> files = new ArrayList<>();
                        line.path("files").forEach(path -> files.add(path.asText()));
                        checkpoints.put(
                                began.id(), began.finished(line.path("after").asText(), files));
                    }
                }
                case "cut" -> cuts.add(new Cut(
                        line.path("session_id").asText(),
                        line.path("turn").asInt(),
                        Instant.parse(line.path("since").asText(Instant.EPOCH.toString())),
                        Instant.parse(line.path("time").asText())));
                default -> {
                    // Lines of later versions are passed over.
                }
            }
        }
        return new Contents(List.copyOf(checkpoints.values()), List.copyOf(cuts));
    }

    /** Writes the log anew with only {@code kept} (and the cuts that still cover one of them), atomically. */
    void rewrite(Contents kept) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        StringBuilder text = new StringBuilder();
        for (Checkpoint checkpoint : kept.checkpoints()) {
            text.append(Json.write(beganLine(checkpoint))).append('\n');
            if (checkpoint.after().isPresent()) {
                text.append(Json.write(changesLine(checkpoint))).append('\n');
            }
        }
        for (Cut cut : kept.cuts()) {
            if (kept.checkpoints().stream().anyMatch(cut::covers)) {
                text.append(Json.write(cutLine(cut))).append('\n');
            }
        }
        PrivateFiles.createEmpty(next);
        Files.writeString(next, text, StandardCharsets.UTF_8);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static ObjectNode beganLine(Checkpoint checkpoint) {
        return Json.object()
                .put("type", "checkpoint")
                .put("id", checkpoint.id())
                .put("session_id", checkpoint.sessionId())
                .put("time", checkpoint.time().toString())
                .put("turn", checkpoint.turn())
                .put("user_message", checkpoint.userMessage())
                .put("tool", checkpoint.tool())
                .put("call_id", checkpoint.callId())
                .put("summary", checkpoint.summary())
                .put("before", checkpoint.before());
    }

    private void append(ObjectNode line) throws IOException {
        if (!Files.exists(file)) {
            PrivateFiles.createFolders(file.getParent());
            PrivateFiles.createEmpty(file);
        }
        Files.writeString(file, Json.write(line) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
