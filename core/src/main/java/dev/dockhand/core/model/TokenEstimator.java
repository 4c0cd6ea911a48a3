package dev.dockhand.core.model;

import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.util.List;

/**
 * Estimates tokens when a provider reports none (some OpenAI-compatible servers and Ollama builds do not). About four
 * characters a token is what every major tokenizer averages on English and code; an exact count would need each
 * model's own vocabulary, which Dockhand cannot know for an arbitrary server, so no tokenizer is bundled.
 */
public final class TokenEstimator {
    /** Role markers and separators the providers add around each message. */
    private static final int PER_MESSAGE = 4;

    /**
     * What an image costs, whatever its size: Anthropic scales an image down to about 1.15 megapixels, some 1,600
     * tokens, the most any provider charges for one; the base64 text's length would count it hundreds of times over.
     */
    static final int IMAGE = 1_600;

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
            tokens += text(tool.name()) + text(tool.description()) + text(Json.write(tool.parameters()));
        }
        return tokens;
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
        Message.ToolResult result = (Message.ToolResult) message;
        return text(result.content()) + (long) IMAGE * result.images().size();
    }
}
