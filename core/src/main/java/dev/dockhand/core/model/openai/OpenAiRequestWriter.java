package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link ModelRequest}s as streaming chat-completions request bodies. Every request carries the whole history,
 * and a history only grows at its end, so each message's JSON is written once and reused while the message is in the
 * requests (messages are immutable, so their identity stands for their content); likewise the tools. A tool round
 * then costs the writing of its own two messages, not of the conversation so far: it was the largest part of
 * Dockhand's own time between model requests. One writer serves one client.
 */
final class OpenAiRequestWriter {
    private Map<Message, String> written = new IdentityHashMap<>();
    private List<ToolDeclaration> writtenTools;
    private String toolsJson;

    synchronized String write(ModelRequest request) {
        Map<Message, String> now = new IdentityHashMap<>();
        StringBuilder body = new StringBuilder(1024);
        body.append("{\"model\":").append(Json.write(request.model()));
        // Without stream_options the usage chunk never comes; it arrives last, with an empty choices array.
        body.append(",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":[");
        String separator = "";
        for (Message message : request.messages()) {
            String json = written.get(message);
            if (json == null) {
                json = Json.write(message(message));
            }
            now.put(message, json);
            body.append(separator).append(json);
            separator = ",";
        }
        body.append(']');
        // Only the messages of this request are kept: a compacted history lets the old ones go.
        written = now;
        if (!request.tools().isEmpty()) {
            body.append(",\"tools\":").append(tools(request.tools()));
        }
        return body.append('}').toString();
    }

    private String tools(List<ToolDeclaration> declarations) {
        if (declarations != writtenTools) {
            ArrayNode tools = Json.MAPPER.createArrayNode();
            for (ToolDeclaration tool : declarations) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                function.put("description", tool.description());
                function.set("parameters", tool.parameters());
            }
            toolsJson = Json.write(tools);
            writtenTools = declarations;
        }
        return toolsJson;
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
