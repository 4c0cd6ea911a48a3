package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ImageBudget;
import dev.dockhand.core.model.ImageInput;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.RequestJson;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.WireCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link ModelRequest}s as streaming chat-completions request bodies, in UTF-8. Holds no state: every request
 * carries the whole history, written afresh.
 */
final class OpenAiRequestWriter {
    /** The server's host, which with the model's name says its {@link OpenAiDialect}; empty when unknown. */
    private final String host;

    OpenAiRequestWriter(String host) {
        this.host = host;
    }

    /** A writer for a server whose host says nothing: the model's name alone chooses the dialect. */
    OpenAiRequestWriter() {
        this("");
    }

    byte[] write(ModelRequest request) {
        OpenAiDialect dialect = OpenAiDialect.of(host, request.model());
        ObjectNode body = Json.object().put("model", request.model());
        request.reasoningEffort().ifPresent(effort -> effort(body, request.model(), effort));
        body.put("stream", true);
        if (dialect.streamOptions() == OpenAiDialect.StreamOptions.SENT) {
            // Without stream_options the usage chunk never comes; it arrives last, with an empty choices array.
            body.putObject("stream_options").put("include_usage", true);
        }
        ArrayNode messages = body.putArray("messages");
        List<Map.Entry<Message.ToolResult, List<Image>>> carried = new ArrayList<>();
        ImageBudget images =
                ImageBudget.plan(request.messages(), ImageInput.openAiChat(request.model()), ImageBudget.OPENAI);
        WireCalls wire = WireCalls.of(request.messages(), dialect.ids());
        for (Message message : request.messages()) {
            if (!(message instanceof Message.ToolResult)) {
                carryImages(messages, carried);
            }
            if (message instanceof Message.ToolResult result) {
                messages.add(toolMessage(wire.result(result), images.split(result), carried));
            } else {
                messages.add(message(message, request.model(), wire));
            }
        }
        carryImages(messages, carried);
        if (dialect.bridge() == OpenAiDialect.Bridge.AFTER_TOOL_MESSAGES) {
            body.set("messages", bridged(messages));
        }
        if (!request.tools().isEmpty()) {
            body.set("tools", RequestJson.functions(request.tools()));
        }
        return Json.writeBytes(body);
    }

    /**
     * The messages in the order Mistral takes them: an assistant message with neither content nor calls (a reply that
     * said nothing) is left out, and a short assistant message goes between a tool message and a user or system
     * message after it: the next prompt after a turn that ended on its tool results (a cancelled call, the loop guard,
     * a limit, a failure, a resumed session), and the user message that carries a round's images.
     */
    private static ArrayNode bridged(ArrayNode messages) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        String previous = "";
        for (JsonNode message : messages) {
            String role = message.path("role").asText();
            if (role.equals("assistant") && saysNothing(message)) {
                continue;
            }
            if (previous.equals("tool") && !role.equals("tool") && !role.equals("assistant")) {
                out.addObject().put("role", "assistant").put("content", OpenAiDialect.BRIDGE_TEXT);
            }
            out.add(message);
            previous = role;
        }
        return out;
    }

    private static boolean saysNothing(JsonNode assistant) {
        JsonNode content = assistant.get("content");
        return (content == null || content.isNull() || content.asText().isEmpty())
                && !assistant.path("tool_calls").isArray();
    }

    /**
     * The effort as {@code reasoning_effort}, which OpenAI, xAI, Groq and DeepSeek take as low/medium/high. DeepSeek
     * also has a thinking switch ({@code thinking: {"type": "enabled"}}); asking for an effort asks for thinking, so
     * it is turned on too (a no-op on deepseek-reasoner, where it is always on). Without an effort neither is sent:
     * the server's default stands.
     */
    private static void effort(ObjectNode body, String model, ReasoningEffort effort) {
        if (ReasoningEffort.refusedBy(model)) {
            // Models that do not reason answer reasoning_effort with 400 "Unsupported parameter": a session-wide
            // effort must not break a /model switch to one of them. Other servers' models get it as asked.
            return;
        }
        body.put("reasoning_effort", effort.cliName());
        if (OpenAiReasoning.isDeepSeek(model)) {
            body.putObject("thinking").put("type", "enabled");
        }
    }

    private static ObjectNode message(Message message, String model, WireCalls wire) {
        ObjectNode node = Json.object();
        if (message instanceof Message.System system) {
            node.put("role", "system").put("content", system.text());
        } else if (message instanceof Message.User user) {
            node.put("role", "user").put("content", user.text());
        } else if (message instanceof Message.Assistant assistant) {
            assistant(node, assistant, model, wire);
        }
        return node;
    }

    /**
     * A tool message: text only, which is all the API takes there ("image_url" in a tool message is refused). Images
     * the model takes are named in it and saved in {@code carried} for the user message after the round's results.
     */
    private static ObjectNode toolMessage(
            Message.ToolResult result,
            ImageInput.Split split,
            List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        StringBuilder text = new StringBuilder(split.text());
        for (Image image : split.sent()) {
            text.append(text.length() == 0 ? "" : "\n").append(ImageInput.followsNote(image));
        }
        if (split.sends()) {
            carried.add(Map.entry(result, split.sent()));
        }
        return Json.object()
                .put("role", "tool")
                .put("tool_call_id", result.toolCallId())
                .put("content", text.toString());
    }

    /**
     * The images of a round's results as one user message after its last tool message: a message between two tool
     * messages of one round would leave the calls after it unanswered in the API's eyes. Each call's images follow a
     * line naming the call.
     */
    private static void carryImages(ArrayNode messages, List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        if (carried.isEmpty()) {
            return;
        }
        ObjectNode user = messages.addObject().put("role", "user");
        ArrayNode content = user.putArray("content");
        for (Map.Entry<Message.ToolResult, List<Image>> entry : carried) {
            content.addObject().put("type", "text").put("text", ImageInput.carriedLabel(entry.getKey()));
            for (Image image : entry.getValue()) {
                content.addObject()
                        .put("type", "image_url")
                        .putObject("image_url")
                        .put("url", image.dataUrl());
            }
        }
        carried.clear();
    }

    private static void assistant(ObjectNode node, Message.Assistant assistant, String model, WireCalls wire) {
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
        for (int i = 0; i < assistant.toolCalls().size(); i++) {
            ToolCall call = wire.call(assistant, i);
            ObjectNode entry = calls.addObject().put("id", call.id()).put("type", "function");
            entry.putObject("function")
                    .put("name", call.name())
                    .put("arguments", ToolArguments.replayable(call.arguments()));
        }
    }
}
