package dev.dockhand.core.model.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.RequestJson;
import dev.dockhand.core.model.ToolArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The parts of one Gemini reply as they must go back, kept in the reply's {@link ProviderState} (wire
 * {@value #WIRE}) whenever the reply carried a {@code thoughtSignature}. Google asks for each signature "in the exact
 * part where it was received" and for signed parts never to be merged, so the state records the reply's parts in
 * order: its text runs (each with the signature that ended it, if any), its function calls by their index in the
 * reply (with the signature the first of a parallel set carries), and its signed thought parts. Unsigned thought parts
 * are summaries Gemini does not read back (gemini-cli leaves them out of its history too); they stay in the reply's
 * reasoning only.
 *
 * <p>A signature is the state of one model's reasoning, so it goes back only to the model that made it (the name
 * Dockhand asked for); after a switch to another Gemini model the reply goes back as if another provider had made it.
 *
 * <p>The JSON is {@code {"model":…,"parts":[{"thought":true,"text":…,"thoughtSignature":…},
 * {"text":…,"thoughtSignature":…}, {"functionCall":0,"thoughtSignature":…}, …]}}.
 */
final class ReplayedParts {
    static final String WIRE = "gemini";

    private final String model;
    private final List<ObjectNode> parts = new ArrayList<>();
    private boolean signed;

    /** The parts of a reply from {@code model}, as the request named it. */
    ReplayedParts(String model) {
        this.model = model;
    }

    /** Appends streamed thought text: to the open thought part, or as a new one. */
    void thought(String text, String signature) {
        ObjectNode open = open(true);
        if (open == null) {
            if (text.isEmpty()) {
                // A signature alone with nothing to sit on: Gemini refuses an empty text part, and it does not
                // validate the signatures of thought parts, so there is nothing to send it on.
                return;
            }
            open = Json.object().put("thought", true).put("text", "");
            parts.add(open);
        }
        open.put("text", open.get("text").asText() + text);
        sign(open, signature);
    }

    /**
     * Appends streamed answer text: to the open text part, or as a new one. A stream splits one part across chunks,
     * and Gemini 3 sends a text answer's signature on a last chunk whose text is empty ("the model may return the
     * thought signature in a part with an empty text content part"): it ends, and belongs to, the run before it.
     */
    void text(String text, String signature) {
        ObjectNode open = open(false);
        if (open == null) {
            if (text.isEmpty()) {
                // Nothing before it to end: as for thoughts, an empty text part would be refused, and Gemini does
                // not validate signatures outside function calls.
                return;
            }
            open = Json.object().put("text", "");
            parts.add(open);
        }
        open.put("text", open.get("text").asText() + text);
        sign(open, signature);
    }

    void call(int index, String signature) {
        ObjectNode part = Json.object().put("functionCall", index);
        parts.add(part);
        sign(part, signature);
    }

    /** The state to keep with the reply: none when Gemini signed nothing, as there is then nothing to give back. */
    ProviderState state() {
        if (!signed) {
            return ProviderState.NONE;
        }
        ObjectNode json = Json.object().put("model", model);
        ArrayNode kept = json.putArray("parts");
        for (ObjectNode part : parts) {
            if (!part.path("thought").asBoolean(false) || part.has("thoughtSignature")) {
                kept.add(part);
            }
        }
        return new ProviderState(WIRE, Json.write(json));
    }

    /** The last part, when it is still open: of the kind asked for and not yet ended by a signature. */
    private ObjectNode open(boolean thought) {
        if (parts.isEmpty()) {
            return null;
        }
        ObjectNode last = parts.get(parts.size() - 1);
        boolean open = !last.has("functionCall")
                && last.path("thought").asBoolean(false) == thought
                && !last.has("thoughtSignature");
        return open ? last : null;
    }

    private void sign(ObjectNode part, String signature) {
        if (signature != null && !signature.isEmpty()) {
            part.put("thoughtSignature", signature);
            signed = true;
        }
    }

    /**
     * The model turn's parts for {@code assistant} from its Gemini state: its text and calls in the order and
     * division they came in, each signature on its own part. Empty when the state is another wire's (or none), or no
     * longer describes the message (then the plain layout goes, and signatures the message lost cannot be used), or
     * came from another model than {@code model}.
     */
    static Optional<List<ObjectNode>> replay(Message.Assistant assistant, String model) {
        Optional<JsonNode> state = RequestJson.stateOf(assistant, WIRE, model);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        JsonNode recorded = state.get().path("parts");
        List<ObjectNode> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int nextCall = 0;
        for (JsonNode part : recorded) {
            String signature = part.path("thoughtSignature").asText("");
            ObjectNode out;
            if (part.has("functionCall")) {
                if (part.get("functionCall").asInt(-1) != nextCall
                        || nextCall >= assistant.toolCalls().size()) {
                    return Optional.empty();
                }
                out = functionCall(assistant.toolCalls().get(nextCall++));
            } else if (part.path("thought").asBoolean(false)) {
                out = Json.object()
                        .put("thought", true)
                        .put("text", part.path("text").asText(""));
            } else {
                text.append(part.path("text").asText(""));
                out = Json.object().put("text", part.path("text").asText(""));
            }
            if (!signature.isEmpty()) {
                out.put("thoughtSignature", signature);
            }
            parts.add(out);
        }
        if (nextCall != assistant.toolCalls().size() || !text.toString().equals(assistant.text())) {
            return Optional.empty();
        }
        return Optional.of(parts);
    }

    /** A {@code functionCall} part for {@code call}, without a signature; a name Gemini refuses goes as a placeholder. */
    static ObjectNode functionCall(ToolCall call) {
        ObjectNode part = Json.object();
        ObjectNode functionCall = part.putObject("functionCall").put("name", ToolCall.wireName(call.name()));
        functionCall.set("args", ToolArguments.asObject(call.arguments()));
        return part;
    }
}
