package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;

/** Writes a {@link ModelRequest} as a streaming chat-completions request body. */
final class OpenAiRequestWriter {
    private OpenAiRequestWriter() {}

    static ObjectNode write(ModelRequest request) {
        ObjectNode body = Json.object();
        body.put("model", request.model());
        body.put("stream", true);
        // Without this the usage chunk never comes; it arrives last, with an empty choices array.
        body.putObject("stream_options").put("include_usage", true);
        ArrayNode messages = body.putArray("messages");
        for (Message message : request.messages()) {
            messages.add(message(message));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                function.put("description", tool.description());
                function.set("parameters", tool.parameters());
            }
        }
        return body;
    }

    private static ObjectNode message(Message message) {
        ObjectNode node = Json.object();
        if (message instanceof Message.System system) {
            node.put("role", "system").put("content", system.text());
        } else if (message instanceof Message.User user) {
            node.put("role", "user").put("content", user.text());
        } else if (message instanceof Message.Assistant assistant) {
            assistant(node, assistant);
        } else if (message instanceof Message.ToolResult result) {
            node.put("role", "tool").put("tool_call_id", result.toolCallId()).put("content", result.content());
        }
        return node;
    }

    private static void assistant(ObjectNode node, Message.Assistant assistant) {
        node.put("role", "assistant");
        if (assistant.text().isEmpty() && assistant.hasToolCalls()) {
            node.putNull("content");
        } else {
            node.put("content", assistant.text());
        }
        if (!assistant.hasToolCalls()) {
            return;
        }
        ArrayNode calls = node.putArray("tool_calls");
        for (ToolCall call : assistant.toolCalls()) {
            ObjectNode entry = calls.addObject().put("id", call.id()).put("type", "function");
            entry.putObject("function").put("name", call.name()).put("arguments", replayableArguments(call));
        }
    }

    /**
     * Arguments are sent back as the model wrote them, unless they are not a JSON object: servers that re-parse
     * history (vLLM, llama.cpp templates) reject the whole request over them. The tool's error result already quotes
     * what the model sent, so nothing is lost by replaying {@code {}} instead.
     */
    static String replayableArguments(ToolCall call) {
        return ToolArguments.isObject(call.arguments()) ? call.arguments() : "{}";
    }
}
