package dev.dockhand.core.model.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ImageBudget;
import dev.dockhand.core.model.ImageInput;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.RequestJson;
import dev.dockhand.core.model.ToolArguments;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.model.WireCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes {@link ModelRequest}s as streaming Responses API request bodies. Dockhand keeps the conversation, so nothing
 * is stored at OpenAI ({@code store: false}) and every request carries the whole history as {@code input} items. The
 * reasoning of a reasoning model survives between requests only as the encrypted items its replies brought, which go
 * back verbatim in their place; without them the model starts each tool round from nothing. Holds no state.
 */
final class ResponsesRequestWriter {
    /** The {@link ProviderState#wire()} of the state this wire's replies carry. */
    static final String WIRE = "openai-responses";

    /** Whether a reasoning model is asked for summaries of its reasoning. */
    enum Summaries {
        /** {@code reasoning.summary: "auto"}: OpenAI streams no reasoning text without it. */
        ASKED,
        /** None asked: OpenAI refused them for the organization (it must be verified for them). */
        LEFT_OUT
    }

    byte[] write(ModelRequest request) {
        return write(request, Summaries.ASKED);
    }

    byte[] write(ModelRequest request, Summaries summaries) {
        ObjectNode body = Json.object().put("model", request.model());
        ArrayNode input = Json.MAPPER.createArrayNode();
        List<Map.Entry<Message.ToolResult, List<Image>>> carried = new ArrayList<>();
        ImageBudget images =
                ImageBudget.plan(request.messages(), ImageInput.responses(request.model()), ImageBudget.OPENAI);
        WireCalls wire = WireCalls.of(request.messages(), WireCalls.Rule.RESPONSES);
        for (Message message : request.messages()) {
            if (message instanceof Message.System system) {
                // The documented place for the system prompt; ChatGPT-plan access refuses a system message item.
                body.put("instructions", system.text());
                continue;
            }
            if (message instanceof Message.ToolResult result) {
                input.add(output(wire.result(result), images.split(result), request.model(), carried));
                continue;
            }
            carryImages(input, carried);
            input.addAll(items(message, request.model(), wire));
        }
        carryImages(input, carried);
        body.set("input", input);
        if (!request.tools().isEmpty()) {
            body.set("tools", tools(request.tools()));
            body.put("parallel_tool_calls", true);
        }
        body.put("stream", true);
        body.put("store", false);
        reasoning(body, request, summaries);
        return Json.writeBytes(body);
    }

    /**
     * What a reasoning model is asked for: its reasoning back encrypted, a summary of it, the effort. A model known to
     * refuse an effort gets none: xAI's grok models but grok-3-mini answer {@code reasoning.effort} with 400 "does not
     * support parameter reasoningEffort", as on chat completions.
     */
    private static void reasoning(ObjectNode body, ModelRequest request, Summaries summaries) {
        String model = request.model();
        if (!ResponsesModels.neverReasons(model)) {
            // With store:false the reasoning is only kept if it comes back encrypted; the models known not to reason
            // refuse the include.
            body.putArray("include").add("reasoning.encrypted_content");
        }
        boolean summary = summaries == Summaries.ASKED && ResponsesModels.reasons(model);
        Optional<ReasoningEffort> effort = request.reasoningEffort().filter(asked -> !ReasoningEffort.refusedBy(model));
        if (!ResponsesModels.neverReasons(model) && (summary || effort.isPresent())) {
            ObjectNode reasoning = body.putObject("reasoning");
            effort.ifPresent(asked -> reasoning.put("effort", asked.name().toLowerCase(Locale.ROOT)));
            if (summary) {
                // Without it OpenAI streams no reasoning text at all; "auto" is the most detailed the model offers.
                reasoning.put("summary", "auto");
            }
        }
    }

    private static ArrayNode tools(List<ToolDeclaration> declarations) {
        ArrayNode tools = Json.MAPPER.createArrayNode();
        for (ToolDeclaration tool : declarations) {
            ObjectNode function = tools.addObject().put("type", "function");
            function.put("name", tool.name());
            function.put("description", tool.description());
            function.set("parameters", tool.parameters());
            // Strict is the Responses default, and it requires every property to be required and no others to be
            // allowed; Dockhand's tools have optional parameters.
            function.put("strict", false);
        }
        return tools;
    }

    private static List<ObjectNode> items(Message message, String model, WireCalls wire) {
        if (message instanceof Message.User user) {
            return List.of(
                    Json.object().put("type", "message").put("role", "user").put("content", user.text()));
        } else if (message instanceof Message.Assistant assistant) {
            return assistant(assistant, model, wire);
        }
        return List.of();
    }

    /**
     * A {@code function_call_output}: its output the result's text, or, with images OpenAI's models take there, a list
     * of an {@code input_text} and {@code input_image} parts (data URLs). Other servers' vision models (xAI) get the
     * images in {@code carried}, for a user message after the round's outputs.
     */
    private static ObjectNode output(
            Message.ToolResult result,
            ImageInput.Split split,
            String model,
            List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        ObjectNode item = Json.object().put("type", "function_call_output").put("call_id", result.toolCallId());
        if (!split.sends()) {
            return item.put("output", split.text());
        }
        if (!ImageInput.responsesInOutput(model)) {
            StringBuilder text = new StringBuilder(split.text());
            for (Image image : split.sent()) {
                text.append(text.length() == 0 ? "" : "\n").append(ImageInput.followsNote(image));
            }
            carried.add(Map.entry(result, split.sent()));
            return item.put("output", text.toString());
        }
        ArrayNode output = item.putArray("output");
        if (!split.text().isEmpty()) {
            output.addObject().put("type", "input_text").put("text", split.text());
        }
        for (Image image : split.sent()) {
            output.add(inputImage(image));
        }
        return item;
    }

    /**
     * An {@code input_image} part. OpenAI's SDK types make {@code detail} required on a user message's image (it
     * defaults to {@code auto} in the reference), so it is always sent.
     */
    private static ObjectNode inputImage(Image image) {
        return Json.object()
                .put("type", "input_image")
                .put("image_url", image.dataUrl())
                .put("detail", "auto");
    }

    /** The images of a round's outputs as one user message after the last of them, each call's after its name. */
    private static void carryImages(ArrayNode input, List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        if (carried.isEmpty()) {
            return;
        }
        ArrayNode content =
                input.addObject().put("type", "message").put("role", "user").putArray("content");
        for (Map.Entry<Message.ToolResult, List<Image>> entry : carried) {
            content.addObject().put("type", "input_text").put("text", ImageInput.carriedLabel(entry.getKey()));
            for (Image image : entry.getValue()) {
                content.add(inputImage(image));
            }
        }
        carried.clear();
    }

    /**
     * One reply's items in the order the model produced them: its reasoning items (encrypted), its messages (with
     * their phase, which gpt-5.3-codex and later read to tell commentary from an answer) and its calls. A reply whose
     * state came from another wire, or none, goes back as its text then its calls.
     */
    private static List<ObjectNode> assistant(Message.Assistant assistant, String model, WireCalls wire) {
        // Keyed by the id as the reply's recorded items hold it; each call goes out as the request's rules take it.
        Map<String, ToolCall> calls = new LinkedHashMap<>();
        for (int i = 0; i < assistant.toolCalls().size(); i++) {
            calls.put(assistant.toolCalls().get(i).id(), wire.call(assistant, i));
        }
        List<ObjectNode> items = new ArrayList<>();
        List<JsonNode> recorded = recordedItems(assistant, model);
        if (recorded.isEmpty() || !textMatches(recorded, assistant.text())) {
            for (JsonNode item : recorded) {
                if (item.path("type").asText().equals("reasoning")) {
                    items.add((ObjectNode) item.deepCopy());
                }
            }
            if (!assistant.text().isEmpty()) {
                items.add(message(assistant.text(), null));
            }
        } else {
            for (JsonNode item : recorded) {
                switch (item.path("type").asText()) {
                    case "reasoning" -> items.add((ObjectNode) item.deepCopy());
                    case "message" -> items.add(message(
                            item.path("text").asText(), item.path("phase").asText(null)));
                    case "function_call" -> {
                        ToolCall call = calls.remove(item.path("call_id").asText());
                        if (call != null) {
                            items.add(call(call));
                        }
                    }
                    default -> {
                        // Nothing else is recorded.
                    }
                }
            }
        }
        for (ToolCall call : calls.values()) {
            items.add(call(call));
        }
        return withoutTrailingReasoning(items);
    }

    /** The recorded items hold the reply's messages as its text has them, unless the text was changed since. */
    private static boolean textMatches(List<JsonNode> recorded, String text) {
        StringBuilder joined = new StringBuilder();
        for (JsonNode item : recorded) {
            if (item.path("type").asText().equals("message")) {
                joined.append(item.path("text").asText());
            }
        }
        return joined.toString().equals(text);
    }

    /**
     * The API refuses a reasoning item that nothing follows ("provided without its required following item"), as
     * in a reply cut off after it reasoned; there is nothing to replay it for.
     */
    private static List<ObjectNode> withoutTrailingReasoning(List<ObjectNode> items) {
        int end = items.size();
        while (end > 0 && items.get(end - 1).path("type").asText().equals("reasoning")) {
            end--;
        }
        return List.copyOf(items.subList(0, end));
    }

    /**
     * The reply's recorded items; none from another wire or another model (encrypted reasoning is refused by any
     * model but the one that wrote it, and by models that do not reason at all), or when a damaged session file lost
     * them.
     */
    private static List<JsonNode> recordedItems(Message.Assistant assistant, String model) {
        List<JsonNode> items = new ArrayList<>();
        RequestJson.stateOf(assistant, WIRE, model)
                .ifPresent(state -> state.path("items").forEach(items::add));
        return items;
    }

    private static ObjectNode message(String text, String phase) {
        ObjectNode message = Json.object().put("type", "message").put("role", "assistant");
        message.putArray("content").addObject().put("type", "output_text").put("text", text);
        if (phase != null) {
            message.put("phase", phase);
        }
        return message;
    }

    /**
     * Arguments go back as the model wrote them, unless they are not a JSON object: the tool's error result already
     * quotes them, and {@code {}} keeps the request acceptable to servers that parse history.
     */
    private static ObjectNode call(ToolCall call) {
        return Json.object()
                .put("type", "function_call")
                .put("call_id", call.id())
                .put("name", call.name())
                .put("arguments", ToolArguments.replayable(call.arguments()));
    }
}
