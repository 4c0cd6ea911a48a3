package dev.dockhand.core.model.gemini;

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
import dev.dockhand.core.model.ToolDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@code streamGenerateContent} body: {@code contents} of {@code user} and {@code model} turns (neighbouring
 * turns of one role merged), the system prompt as {@code systemInstruction}, tools as function declarations, and for
 * thinking models a {@code thinkingConfig}. A reply Gemini signed goes back part for part with its signatures (see
 * {@link ReplayedParts}); other replies go back as their text, then their calls.
 */
final class GeminiRequestWriter {
    /**
     * The value Google documents for a function call Gemini did not produce ("you can set the following dummy
     * signatures of either context_engineering_is_the_way_to_go or skip_thought_signature_validator in the thought
     * signature field to skip validation"); this one is also the one Vertex AI documents, so it works on both.
     */
    static final String UNSIGNED_CALL = "skip_thought_signature_validator";

    private GeminiRequestWriter() {}

    static ObjectNode write(ModelRequest request) {
        GeminiModels model = GeminiModels.of(request.model());
        ObjectNode body = Json.object();
        ArrayNode contents = body.putArray("contents");
        List<Map.Entry<Message.ToolResult, List<Image>>> carried = new ArrayList<>();
        ImageBudget images =
                ImageBudget.plan(request.messages(), ImageInput.gemini(request.model()), ImageBudget.GEMINI);
        for (Message message : request.messages()) {
            if (!(message instanceof Message.ToolResult)) {
                carryImages(contents, carried);
            }
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
                assistant(contents, assistant, request.model());
            } else if (message instanceof Message.ToolResult result) {
                functionResponse(contents, result, images.split(result), model, carried);
            }
        }
        carryImages(contents, carried);
        if (model.requiresCallSignatures()) {
            signUnsignedSteps(contents);
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode declaration =
                        declarations.addObject().put("name", tool.name()).put("description", tool.description());
                declaration.set("parameters", GeminiSchemas.convert(tool.parameters()));
            }
        }
        if (model.thinks()) {
            body.putObject("generationConfig").set("thinkingConfig", thinkingConfig(model, request));
        }
        return body;
    }

    /** The image types Gemini 3 takes inside a functionResponse; HEIC and HEIF go beside it. */
    private static final java.util.Set<String> IN_RESPONSES = java.util.Set.of("image/png", "image/jpeg", "image/webp");

    /**
     * A {@code functionResponse} part with the result's text. Images the model takes go in its {@code parts} as
     * {@code inlineData} on Gemini 3 and later; earlier models refuse that, so theirs go in {@code carried}, for
     * parts of the same user turn after the round's responses.
     */
    private static void functionResponse(
            ArrayNode contents,
            Message.ToolResult result,
            ImageInput.Split split,
            GeminiModels model,
            List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        ObjectNode response = parts(contents, "user").addObject().putObject("functionResponse");
        response.put("name", ToolCall.wireName(result.toolName()));
        StringBuilder text = new StringBuilder(split.text());
        List<Image> inside = new ArrayList<>();
        List<Image> after = new ArrayList<>();
        for (Image image : split.sent()) {
            boolean fits = model.takesImagesInFunctionResponses() && IN_RESPONSES.contains(image.mimeType());
            (fits ? inside : after).add(image);
        }
        if (!after.isEmpty()) {
            for (Image image : after) {
                text.append(text.length() == 0 ? "" : "\n").append(ImageInput.followsNote(image));
            }
            carried.add(Map.entry(result, after));
        }
        response.putObject("response").put(result.error() ? "error" : "output", text.toString());
        if (!inside.isEmpty()) {
            ArrayNode parts = response.putArray("parts");
            int n = 0;
            for (Image image : inside) {
                n++;
                // A name the model can refer to; unique within the response, as the API asks.
                parts.addObject()
                        .putObject("inlineData")
                        .put("mimeType", image.mimeType())
                        .put("data", image.data())
                        .put("displayName", "image-" + n);
            }
        }
    }

    /** The images of a round's responses as parts after the last of them, each call's after a text naming it. */
    private static void carryImages(ArrayNode contents, List<Map.Entry<Message.ToolResult, List<Image>>> carried) {
        if (carried.isEmpty()) {
            return;
        }
        ArrayNode parts = parts(contents, "user");
        for (Map.Entry<Message.ToolResult, List<Image>> entry : carried) {
            parts.addObject().put("text", ImageInput.carriedLabel(entry.getKey()));
            for (Image image : entry.getValue()) {
                parts.addObject()
                        .putObject("inlineData")
                        .put("mimeType", image.mimeType())
                        .put("data", image.data());
            }
        }
        carried.clear();
    }

    /**
     * Asks for thought summaries from every thinking model: they think whether asked to or not, and {@code
     * includeThoughts} only returns a summary of it ("thoughts are returned only when available"), changing neither
     * how much they think nor what they answer. How much is set only when the user chose an effort; otherwise the
     * model's default stands.
     */
    private static ObjectNode thinkingConfig(GeminiModels model, ModelRequest request) {
        ObjectNode config = Json.object().put("includeThoughts", true);
        if (request.reasoningEffort().isPresent()) {
            ReasoningEffort effort = request.reasoningEffort().get();
            model.thinkingLevel(effort).ifPresent(level -> config.put("thinkingLevel", level));
            model.thinkingBudget(effort).ifPresent(budget -> config.put("thinkingBudget", budget));
        }
        return config;
    }

    private static void assistant(ArrayNode contents, Message.Assistant assistant, String model) {
        List<ObjectNode> replayed = ReplayedParts.replay(assistant, model).orElseGet(() -> plain(assistant));
        if (replayed.isEmpty()) {
            return;
        }
        ArrayNode parts = parts(contents, "model");
        replayed.forEach(parts::add);
    }

    private static List<ObjectNode> plain(Message.Assistant assistant) {
        List<ObjectNode> parts = new java.util.ArrayList<>();
        if (!assistant.text().isEmpty()) {
            parts.add(Json.object().put("text", assistant.text()));
        }
        for (ToolCall call : assistant.toolCalls()) {
            parts.add(ReplayedParts.functionCall(call));
        }
        return parts;
    }

    /**
     * Gives the first function call of each model step that has no signature of Gemini's (a call made by another
     * provider, or kept from a session or summary that lost it) the documented placeholder, which Gemini 3 accepts in
     * place of one. Only the first call of a step is checked; later parallel calls never carry one. Steps before the
     * current turn are not validated, but a placeholder there changes nothing, and the current turn's start is the
     * server's to find.
     */
    private static void signUnsignedSteps(ArrayNode contents) {
        for (JsonNode content : contents) {
            if (!content.path("role").asText().equals("model")) {
                continue;
            }
            for (JsonNode part : content.path("parts")) {
                if (part.has("functionCall")) {
                    if (!part.has("thoughtSignature")) {
                        ((ObjectNode) part).put("thoughtSignature", UNSIGNED_CALL);
                    }
                    break;
                }
            }
        }
    }

    private static ArrayNode parts(ArrayNode contents, String role) {
        return RequestJson.turn(contents, role, "parts");
    }
}
