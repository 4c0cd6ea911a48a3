package dev.dockhand.core.session;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Appends a session's messages to {@code <sessions>/<session-id>.jsonl}, one JSON object per line, flushed line by
 * line: a killed process leaves every finished message on disk and at most one cut last line.
 */
public final class Transcript implements AutoCloseable {
    private final Path file;
    private final BufferedWriter writer;

    private Transcript(Path file, BufferedWriter writer) {
        this.file = file;
        this.writer = writer;
    }

    /** Starts a new transcript, or continues an existing one. */
    public static Transcript open(Path file, String sessionId, Path workspace, String model) {
        try {
            Files.createDirectories(file.getParent());
            boolean fresh = !Files.exists(file);
            BufferedWriter writer = Files.newBufferedWriter(
                    file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Transcript transcript = new Transcript(file, writer);
            if (fresh) {
                transcript.write(Json.object()
                        .put("type", "session")
                        .put("id", sessionId)
                        .put("started", Instant.now().toString())
                        .put("workspace", workspace.toString())
                        .put("model", model));
            }
            return transcript;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the session transcript " + file, e);
        }
    }

    public Path file() {
        return file;
    }

    /** Records one message of the conversation. */
    public void record(Message message) {
        write(json(message));
    }

    /** Records the tokens one request used. */
    public void recordUsage(dev.dockhand.core.model.TokenUsage usage) {
        write(Json.object()
                .put("type", "usage")
                .put("input_tokens", usage.inputTokens())
                .put("output_tokens", usage.outputTokens()));
    }

    /** Records a failure, with the text of the reply that had arrived. */
    public void recordError(String message, String partialText) {
        write(Json.object().put("type", "error").put("message", message).put("partial_text", partialText));
    }

    static ObjectNode json(Message message) {
        if (message instanceof Message.User user) {
            return Json.object().put("type", "user").put("text", user.text());
        }
        if (message instanceof Message.Assistant assistant) {
            ObjectNode node = Json.object().put("type", "assistant").put("text", assistant.text());
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : assistant.toolCalls()) {
                calls.addObject().put("id", call.id()).put("name", call.name()).put("arguments", call.arguments());
            }
            return node;
        }
        if (message instanceof Message.ToolResult result) {
            return Json.object()
                    .put("type", "tool_result")
                    .put("id", result.toolCallId())
                    .put("name", result.toolName())
                    .put("content", result.content())
                    .put("error", result.error());
        }
        throw new IllegalArgumentException("system prompts are not recorded");
    }

    private synchronized void write(ObjectNode record) {
        try {
            writer.write(Json.write(record));
            writer.write('\n');
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the session transcript " + file, e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
