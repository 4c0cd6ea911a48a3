package dev.dockhand.core.session;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * Appends a session's messages to {@code <sessions>/<session-id>.jsonl}, one JSON object per line, flushed line by
 * line: a killed process leaves every finished message on disk and at most one cut last line. Recording never
 * throws: the first write that fails (a full or read-only disk) is reported once to the {@code onFailure} listener,
 * and the session goes on in memory without a transcript.
 */
public final class Transcript implements AutoCloseable {
    private final Path file;
    private final ObjectNode header;
    private final Consumer<String> onFailure;
    private BufferedWriter writer;
    private boolean failed;
    private boolean afterCut;

    private final SessionImages images;

    private Transcript(Path file, ObjectNode header, Consumer<String> onFailure) {
        this.file = file;
        this.images = new SessionImages(file);
        this.header = header;
        this.onFailure = onFailure;
    }

    /**
     * Starts a new transcript, or continues an existing one. The file is created with the first record, so a session
     * that never said anything leaves nothing behind.
     */
    public static Transcript open(Path file, String sessionId, Path workspace, String model) {
        return open(file, sessionId, workspace, model, problem -> {});
    }

    /** Like {@link #open(Path, String, Path, String)}, telling {@code onFailure} (once) when writing fails. */
    public static Transcript open(
            Path file, String sessionId, Path workspace, String model, Consumer<String> onFailure) {
        ObjectNode header = Json.object()
                .put("type", "session")
                .put("id", sessionId)
                .put("started", Instant.now().toString())
                .put("workspace", workspace.toString())
                .put("model", model);
        return new Transcript(file, header, onFailure);
    }

    public Path file() {
        return file;
    }

    /** Records one message of the conversation. */
    public void record(Message message) {
        write(json(message, images));
    }

    /** Records the tokens one request used. */
    public void recordUsage(dev.dockhand.core.model.TokenUsage usage) {
        write(Json.object()
                .put("type", "usage")
                .put("input_tokens", usage.inputTokens())
                .put("output_tokens", usage.outputTokens())
                .put("cached_input_tokens", usage.cachedInputTokens())
                .put("cache_write_tokens", usage.cacheWriteTokens())
                .put("reasoning_tokens", usage.reasoningTokens()));
    }

    /**
     * Records that the conversation sent to the model was compressed. The messages stay in this file, so a resumed
     * session starts again from the full history.
     */
    public void recordCompression(int summarisedMessages, long tokensBefore, long tokensAfter) {
        write(Json.object()
                .put("type", "compressed")
                .put("summarised_messages", summarisedMessages)
                .put("tokens_before", tokensBefore)
                .put("tokens_after", tokensAfter));
    }

    /**
     * Records that the conversation was rewound: read back, it holds only its first {@code keptMessages} messages,
     * and what follows this line continues from there. The lines before stay, so nothing said is lost.
     */
    public void recordRewind(int keptMessages) {
        write(Json.object().put("type", "rewind").put("kept_messages", keptMessages));
    }

    /**
     * Records an entry that is not a message, such as a sub-agent's run ({@code "type": "subagent"}); a resumed session
     * passes over types it does not replay.
     */
    public void recordEntry(ObjectNode entry) {
        write(entry.deepCopy());
    }

    /** Records a failure, with the text of the reply that had arrived. */
    public void recordError(String message, String partialText) {
        write(Json.object().put("type", "error").put("message", message).put("partial_text", partialText));
    }

    static ObjectNode json(Message message, SessionImages images) {
        if (message instanceof Message.User user) {
            ObjectNode node = Json.object().put("type", "user").put("text", user.text());
            if (user.fromHook()) {
                node.put("hook", true);
            }
            return node;
        }
        if (message instanceof Message.Assistant assistant) {
            ObjectNode node = Json.object().put("type", "assistant").put("text", assistant.text());
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : assistant.toolCalls()) {
                calls.addObject().put("id", call.id()).put("name", call.name()).put("arguments", call.arguments());
            }
            // Kept so a resumed session replays to the provider what it requires (signatures, reasoning items).
            if (!assistant.reasoning().isEmpty()) {
                node.put("reasoning", assistant.reasoning());
            }
            if (!assistant.state().isEmpty()) {
                node.putObject("provider_state")
                        .put("wire", assistant.state().wire())
                        .put("json", assistant.state().json());
            }
            return node;
        }
        if (message instanceof Message.ToolResult result) {
            ObjectNode node = Json.object()
                    .put("type", "tool_result")
                    .put("id", result.toolCallId())
                    .put("name", result.toolName())
                    .put("content", result.content())
                    .put("error", result.error());
            if (result.hasImages()) {
                ArrayNode stored = node.putArray("images");
                result.images().forEach(image -> stored.add(images.store(image)));
            }
            return node;
        }
        throw new IllegalArgumentException("system prompts are not recorded");
    }

    /** The resume reading this transcript stopped at a cut line: its records go behind a marker. */
    synchronized void resumingAfterCut() {
        afterCut = true;
    }

    private synchronized void write(ObjectNode record) {
        if (failed) {
            return;
        }
        try {
            if (writer == null) {
                boolean fresh = !Files.exists(file);
                if (fresh) {
                    createPrivate(file);
                }
                boolean cutShort = !fresh && endsMidLine(file);
                boolean marker = !fresh && (cutShort || afterCut);
                writer = Files.newBufferedWriter(
                        file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                if (cutShort) {
                    // A line cut short by a crash stays as it was, on its own line: the records of this resume must
                    // not be glued onto it.
                    writer.write('\n');
                }
                if (marker) {
                    // Reading stopped at a cut line (this one, or one an older version glued records onto): the
                    // marker tells the next reading where this resume's records, which follow on from before the
                    // cut, begin.
                    writer.write(Json.write(Json.MAPPER.createObjectNode().put("type", Sessions.AFTER_CUT)));
                    writer.write('\n');
                }
                if (fresh) {
                    writer.write(Json.write(header));
                    writer.write('\n');
                }
            }
            writer.write(Json.write(record));
            writer.write('\n');
            writer.flush();
        } catch (IOException | RuntimeException e) {
            failed = true;
            LoggerFactory.getLogger(Transcript.class).error("cannot write the session transcript {}", file, e);
            closeQuietly();
            onFailure.accept("the session transcript " + file + " cannot be written (" + e.getMessage()
                    + "); this session goes on in memory and cannot be resumed later.");
        }
    }

    /** Whether the file's last byte is not a line end: its last record was cut short. */
    private static boolean endsMidLine(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                return false;
            }
            ByteBuffer last = ByteBuffer.allocate(1);
            channel.read(last, size - 1);
            return last.get(0) != '\n';
        }
    }

    /** Creates the file owner-only in owner-only folders: a transcript holds whatever the tools read. */
    private static void createPrivate(Path file) throws IOException {
        dev.dockhand.core.PrivateFiles.createFolders(file.getParent());
        dev.dockhand.core.PrivateFiles.createEmpty(file);
    }

    private void closeQuietly() {
        try {
            if (writer != null) {
                writer.close();
            }
        } catch (IOException e) {
            // Already reported: the transcript is given up.
        }
        writer = null;
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }
}
