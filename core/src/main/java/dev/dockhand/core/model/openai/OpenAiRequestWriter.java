package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link ModelRequest}s as streaming chat-completions request bodies, in UTF-8. Every request carries the whole
 * history, and a history only grows at its end, so each message's JSON is encoded once and reused while the message
 * is in the requests (messages are immutable, so their identity stands for their content); likewise the tools. A tool
 * round then costs the encoding of its own two messages and a copy of the rest, not the writing of the conversation
 * so far: that was the largest part of Dockhand's own time between model requests. One writer serves one client.
 */
final class OpenAiRequestWriter {
    private static final byte[] MODEL = ascii("{\"model\":");
    // Without stream_options the usage chunk never comes; it arrives last, with an empty choices array.
    private static final byte[] MESSAGES =
            ascii(",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":[");
    private static final byte[] COMMA = ascii(",");
    private static final byte[] TOOLS = ascii("],\"tools\":");
    private static final byte[] END_MESSAGES = ascii("]");
    private static final byte[] END = ascii("}");

    private Map<Message, byte[]> written = new IdentityHashMap<>();
    /** The model the cached messages were written for: what reasoning goes back depends on it. */
    private String writtenModel;

    private List<ToolDeclaration> writtenTools;
    private byte[] toolsJson;

    synchronized byte[] write(ModelRequest request) {
        List<byte[]> parts = new ArrayList<>(2 * request.messages().size() + 8);
        parts.add(MODEL);
        parts.add(Json.writeBytes(request.model()));
        request.reasoningEffort().ifPresent(effort -> parts.add(effort(request.model(), effort)));
        parts.add(MESSAGES);
        if (!request.model().equals(writtenModel)) {
            written = new IdentityHashMap<>();
            writtenModel = request.model();
        }
        Map<Message, byte[]> now = new IdentityHashMap<>();
        boolean first = true;
        for (Message message : request.messages()) {
            byte[] json = written.get(message);
            if (json == null) {
                json = Json.writeBytes(message(message, request.model()));
            }
            now.put(message, json);
            if (!first) {
                parts.add(COMMA);
            }
            parts.add(json);
            first = false;
        }
        // Only the messages of this request are kept: a compacted history lets the old ones go.
        written = now;
        if (request.tools().isEmpty()) {
            parts.add(END_MESSAGES);
        } else {
            parts.add(TOOLS);
            parts.add(tools(request.tools()));
        }
        parts.add(END);
        return concatenate(parts);
    }

    /**
     * The effort as {@code reasoning_effort}, which OpenAI, xAI, Groq and DeepSeek take as low/medium/high. DeepSeek
     * also has a thinking switch ({@code thinking: {"type": "enabled"}}); asking for an effort asks for thinking, so
     * it is turned on too (a no-op on deepseek-reasoner, where it is always on). Without an effort neither is sent:
     * the server's default stands.
     */
    private static byte[] effort(String model, ReasoningEffort effort) {
        ObjectNode fields = Json.object().put("reasoning_effort", effort.cliName());
        if (OpenAiReasoning.isDeepSeek(model)) {
            fields.putObject("thinking").put("type", "enabled");
        }
        String json = Json.write(fields);
        // The object's fields without its braces, spliced in after the model.
        return ascii("," + json.substring(1, json.length() - 1));
    }

    private byte[] tools(List<ToolDeclaration> declarations) {
        if (declarations != writtenTools) {
            ArrayNode tools = Json.MAPPER.createArrayNode();
            for (ToolDeclaration tool : declarations) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                function.put("description", tool.description());
                function.set("parameters", tool.parameters());
            }
            toolsJson = Json.writeBytes(tools);
            writtenTools = declarations;
        }
        return toolsJson;
    }

    private static byte[] concatenate(List<byte[]> parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] body = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, body, at, part.length);
            at += part.length;
        }
        return body;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static ObjectNode message(Message message, String model) {
        ObjectNode node = Json.object();
        if (message instanceof Message.System system) {
            node.put("role", "system").put("content", system.text());
        } else if (message instanceof Message.User user) {
            node.put("role", "user").put("content", user.text());
        } else if (message instanceof Message.Assistant assistant) {
            assistant(node, assistant, model);
        } else if (message instanceof Message.ToolResult result) {
            node.put("role", "tool").put("tool_call_id", result.toolCallId()).put("content", result.content());
        }
        return node;
    }

    private static void assistant(ObjectNode node, Message.Assistant assistant, String model) {
        node.put("role", "assistant");
        if (assistant.text().isEmpty() && assistant.hasToolCalls()) {
            node.putNull("content");
        } else {
            node.put("content", assistant.text());
        }
        // Reasoning never goes into content: a model reading its own thoughts as something it said starts
        // answering them.
        OpenAiReasoning.replay(node, assistant, model);
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
