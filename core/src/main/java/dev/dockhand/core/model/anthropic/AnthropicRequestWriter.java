package dev.dockhand.core.model.anthropic;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;

/**
 * Writes a request for {@code POST /v1/messages}. The API wants user and assistant turns strictly alternating, with
 * no empty or whitespace-only text (a 400 either way): tool results become {@code tool_result} blocks of a user turn,
 * blank text is left out, and neighbouring turns of one role are merged into one.
 */
final class AnthropicRequestWriter {
    private AnthropicRequestWriter() {}

    static ObjectNode write(ModelRequest request, int maxTokens) {
        ObjectNode body = Json.object();
        body.put("model", request.model());
        body.put("max_tokens", maxTokens);
        body.put("stream", true);
        ArrayNode messages = body.putArray("messages");
        for (Message message : request.messages()) {
            if (message instanceof Message.System system) {
                body.put("system", system.text());
            } else {
                append(messages, message);
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode entry = tools.addObject().put("name", tool.name()).put("description", tool.description());
                entry.set("input_schema", tool.parameters());
            }
        }
        return body;
    }

    private static void append(ArrayNode messages, Message message) {
        if (message instanceof Message.User user) {
            if (!user.text().isBlank()) {
                turn(messages, "user").addObject().put("type", "text").put("text", user.text());
            }
        } else if (message instanceof Message.Assistant assistant) {
            if (assistant.text().isBlank() && !assistant.hasToolCalls()) {
                return;
            }
            ArrayNode content = turn(messages, "assistant");
            if (!assistant.text().isBlank()) {
                content.addObject().put("type", "text").put("text", assistant.text());
            }
            for (ToolCall call : assistant.toolCalls()) {
                ObjectNode block = content.addObject()
                        .put("type", "tool_use")
                        .put("id", call.id())
                        .put("name", call.name());
                block.set("input", ToolArguments.asObject(call.arguments()));
            }
        } else if (message instanceof Message.ToolResult result) {
            ObjectNode block = turn(messages, "user")
                    .addObject()
                    .put("type", "tool_result")
                    .put("tool_use_id", result.toolCallId())
                    .put("content", result.content());
            if (result.error()) {
                block.put("is_error", true);
            }
        }
    }

    /** The content array of the last turn if it has this role, else of a new turn. */
    private static ArrayNode turn(ArrayNode messages, String role) {
        if (!messages.isEmpty()) {
            ObjectNode last = (ObjectNode) messages.get(messages.size() - 1);
            if (last.path("role").asText().equals(role)) {
                return (ArrayNode) last.get("content");
            }
        }
        ObjectNode turn = messages.addObject().put("role", role);
        return turn.putArray("content");
    }
}
