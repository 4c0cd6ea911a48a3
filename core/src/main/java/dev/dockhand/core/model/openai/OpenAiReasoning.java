package dev.dockhand.core.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.model.RequestJson;
import java.util.Locale;

/**
 * What an OpenAI-compatible reply's reasoning leaves to replay, and how it goes back. Servers put reasoning in three
 * fields: {@code reasoning_content} (DeepSeek, xAI, vLLM and SGLang reasoning parsers), {@code reasoning} (Groq,
 * OpenRouter, newer vLLM) and {@code reasoning_details} (OpenRouter: typed blocks, some signed or encrypted). The text
 * itself travels as {@link Message.Assistant#reasoning()}; the state ({@link #WIRE}) records which field it came in,
 * for which model, and OpenRouter's merged details array: {@code {"model":…,"field":…,"details":[…]}}.
 *
 * <p>Reasoning goes back only to the model that wrote it, in the field it came in. Servers are strict about the
 * fields they do not know (Groq answers 400 to {@code reasoning_content}, and to {@code reasoning} on models that do not
 * reason), so a field one server sent may not be sent to another; and another model's thoughts, replayed as the
 * model's own chain of thought, would mislead it. Reasoning from another wire (a model switch, a resumed session of
 * another provider) is dropped for the same reason.
 */
final class OpenAiReasoning {
    static final String WIRE = "openai";
    static final String REASONING_CONTENT = "reasoning_content";
    static final String REASONING = "reasoning";
    static final String DETAILS = "reasoning_details";

    private OpenAiReasoning() {}

    /** The state of one reply: empty when it carried no reasoning field at all. */
    static ProviderState state(String model, String field, ArrayNode details) {
        if (field == null && details.isEmpty()) {
            return ProviderState.NONE;
        }
        ObjectNode json = Json.object().put("model", model);
        if (field != null) {
            json.put("field", field);
        }
        if (!details.isEmpty()) {
            json.set("details", details);
        }
        return new ProviderState(WIRE, Json.write(json));
    }

    /**
     * DeepSeek's own API names its models {@code deepseek-…} (deepseek-chat, deepseek-reasoner, deepseek-v4-pro);
     * the same models behind a gateway or on vLLM are named {@code owner/model} and are not held to DeepSeek's rules.
     */
    static boolean isDeepSeek(String model) {
        return !model.contains("/") && model.toLowerCase(Locale.ROOT).startsWith("deepseek-");
    }

    /** Adds to an assistant message's JSON what its reply's reasoning needs back, for a request to {@code model}. */
    static void replay(ObjectNode node, Message.Assistant assistant, String model) {
        RequestJson.stateOf(assistant, WIRE, model).ifPresent(json -> {
            JsonNode details = json.get("details");
            String field = json.path("field").asText("");
            if (details != null && details.isArray() && !details.isEmpty()) {
                // OpenRouter: "pass back unmodified"; it carries the text too, so the plain field would only say it
                // twice.
                node.set(DETAILS, details);
            } else if (!field.isEmpty()) {
                node.put(field, assistant.reasoning());
            }
        });
        if (isDeepSeek(model) && !node.has(REASONING_CONTENT)) {
            // DeepSeek's thinking mode answers 400 ("Missing `reasoning_content` field in the assistant message at
            // message index N") when an assistant message that made tool calls comes back without the field, in
            // this turn and, on the V4 models, in every later one. A message from another model has no reasoning
            // of DeepSeek's to give: the empty string stands for none (DeepSeek opens its own streams with it, and
            // clients that send it back for a message without reasoning report it accepted,
            // deepseek-ai/deepseek-harness#739). On messages without calls DeepSeek ignores the field.
            node.put(REASONING_CONTENT, "");
        }
    }
}
