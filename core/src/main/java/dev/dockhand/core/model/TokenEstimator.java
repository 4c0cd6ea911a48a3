package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.util.List;
import java.util.Map;

/**
 * Estimates tokens when a provider reports none (some OpenAI-compatible servers and Ollama builds do not). About four
 * characters a token is what every major tokenizer averages on English and code; an exact count would need each
 * model's own vocabulary, which Dockhand cannot know for an arbitrary server, so no tokenizer is bundled.
 */
public final class TokenEstimator {
    /** Role markers and separators the providers add around each message. */
    private static final int PER_MESSAGE = 4;

    private TokenEstimator() {}

    public static long text(String text) {
        return (text.length() + 3) / 4;
    }

    public static long messages(List<Message> messages) {
        long tokens = 0;
        for (Message message : messages) {
            tokens += PER_MESSAGE + message(message);
        }
        return tokens;
    }

    public static long tools(List<ToolDeclaration> tools) {
        long tokens = 0;
        for (ToolDeclaration tool : tools) {
            tokens += text(tool.name()) + text(tool.description()) + (jsonLength(tool.parameters()) + 3) / 4;
        }
        return tokens;
    }

    /**
     * The length of {@code node} written as compact JSON, counted rather than written: {@code JsonNode.toString()}
     * would start Jackson's second, internal mapper just for this (about 6 ms of every start-up), and the request
     * writer serialises the schemas with the shared one anyway.
     */
    static long jsonLength(JsonNode node) {
        if (node.isObject()) {
            long length = 2 + Math.max(0, node.size() - 1);
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                length += quotedLength(field.getKey()) + 1 + jsonLength(field.getValue());
            }
            return length;
        }
        if (node.isArray()) {
            long length = 2 + Math.max(0, node.size() - 1);
            for (JsonNode element : node) {
                length += jsonLength(element);
            }
            return length;
        }
        return node.isTextual() ? quotedLength(node.textValue()) : node.asText().length();
    }

    /** A string's length in JSON: its quotes, and its escapes as Jackson writes them. */
    private static long quotedLength(String text) {
        long length = 2 + text.length();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                length += 1;
            } else if (c < 0x20) {
                length += 5;
            }
        }
        return length;
    }

    /** What one request costs on input: its messages and its tool declarations. */
    public static long request(ModelRequest request) {
        return messages(request.messages()) + tools(request.tools());
    }

    /** What one reply cost on output: its text and its tool calls. */
    public static long reply(ModelReply reply) {
        long tokens = text(reply.text());
        for (ToolCall call : reply.toolCalls()) {
            tokens += PER_MESSAGE + text(call.name()) + text(call.arguments());
        }
        return tokens;
    }

    private static long message(Message message) {
        if (message instanceof Message.System system) {
            return text(system.text());
        } else if (message instanceof Message.User user) {
            return text(user.text());
        } else if (message instanceof Message.Assistant assistant) {
            long tokens = text(assistant.text());
            for (ToolCall call : assistant.toolCalls()) {
                tokens += PER_MESSAGE + text(call.name()) + text(call.arguments());
            }
            return tokens;
        }
        return text(((Message.ToolResult) message).content());
    }
}
