package dev.dockhand.core.model.gemini;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;

/**
 * Writes a {@code streamGenerateContent} body: {@code contents} of {@code user} and {@code model} turns (neighbouring
 * turns of one role merged), the system prompt as {@code systemInstruction}, tools as function declarations.
 */
final class GeminiRequestWriter {
    private GeminiRequestWriter() {}

    static ObjectNode write(ModelRequest request) {
        ObjectNode body = Json.object();
        ArrayNode contents = body.putArray("contents");
        for (Message message : request.messages()) {
            if (message instanceof Message.System system) {
                body.putObject("systemInstruction")
                        .putArray("parts")
                        .addObject()
                        .put("text", system.text());
            } else if (message instanceof Message.User user) {
                if (!user.text().isEmpty()) {
                    parts(contents, "user").addObject().put("text", user.text());
                }
            } else if (message instanceof Message.Assistant assistant) {
                assistant(contents, assistant);
            } else if (message instanceof Message.ToolResult result) {
                ObjectNode response = parts(contents, "user").addObject().putObject("functionResponse");
                response.put("name", result.toolName());
                response.putObject("response").put(result.error() ? "error" : "output", result.content());
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode declaration =
                        declarations.addObject().put("name", tool.name()).put("description", tool.description());
                declaration.set("parameters", GeminiSchemas.convert(tool.parameters()));
            }
        }
        return body;
    }

    private static void assistant(ArrayNode contents, Message.Assistant assistant) {
        if (assistant.text().isEmpty() && !assistant.hasToolCalls()) {
            return;
        }
        ArrayNode parts = parts(contents, "model");
        if (!assistant.text().isEmpty()) {
            parts.addObject().put("text", assistant.text());
        }
        for (ToolCall call : assistant.toolCalls()) {
            ObjectNode functionCall =
                    parts.addObject().putObject("functionCall").put("name", call.name());
            functionCall.set("args", ToolArguments.asObject(call.arguments()));
        }
    }

    private static ArrayNode parts(ArrayNode contents, String role) {
        if (!contents.isEmpty()) {
            ObjectNode last = (ObjectNode) contents.get(contents.size() - 1);
            if (last.path("role").asText().equals(role)) {
                return (ArrayNode) last.get("parts");
            }
        }
        return contents.addObject().put("role", role).putArray("parts");
    }
}
