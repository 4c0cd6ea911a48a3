package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What Mistral refuses in a chat-completions request beyond OpenAI's rules, for a model the request names as
 * Mistral's. Hand-written from mistralai/mistral-common's request validator (src/mistral_common/protocol/instruct/
 * validator.py: the roles that may follow each role, an assistant message's content or calls, the V3 validator's tool
 * call ids) and from the errors users met, cited at each rule; the wording of the messages is Mistral's where it was
 * recorded. Mistral's models are held to these wherever they run; Mistral's own API, whose model names have no owner
 * before a slash, also refuses fields it does not know.
 */
final class MistralRules {
    /** Mistral's model families, by the name's last part (mistral-large-latest, mistralai/Devstral-Small-2-24B-…). */
    private static final Pattern FAMILY = Pattern.compile(
            "(ft:)?(open-)?(mistral|mixtral|codestral|devstral|magistral|pixtral|ministral|voxtral)([-.:_].*)?");

    private static final Pattern TOOL_CALL_ID = Pattern.compile("[a-zA-Z0-9]{9}");

    /** The fields OpenAI-compatible servers keep reasoning in, which Mistral's message schema has none of. */
    private static final List<String> REASONING_FIELDS = List.of("reasoning_content", "reasoning", "reasoning_details");

    private MistralRules() {}

    /** Whether {@code model} is one of Mistral's, by its name. */
    static boolean isMistral(String model) {
        String name = model.toLowerCase(Locale.ROOT);
        return FAMILY.matcher(name.substring(name.lastIndexOf('/') + 1)).matches();
    }

    static void check(JsonNode body, WireProblems problems) {
        boolean ownApi = !body.path("model").asText().contains("/");
        if (ownApi) {
            // Recorded: 422 {"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs
            // are not permitted"}]} (cline/cline#582, dnakov/anon-kode#53, BerriAI/litellm#8978).
            problems.require(
                    !body.has("stream_options"),
                    "Extra inputs are not permitted: body.stream_options (extra_forbidden).");
        }
        JsonNode messages = body.path("messages");
        String previous = "";
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            // Recorded: "Unexpected role 'user' after role 'tool'", type invalid_request_message_order, code 3230
            // (zed-industries/zed#37021, datapizza-labs/datapizza-ai#98); the validator lets only an assistant or
            // another tool message follow a tool message.
            problems.require(
                    !previous.equals("tool") || role.equals("tool") || role.equals("assistant"),
                    "Unexpected role '" + role + "' after role 'tool' (messages[" + i + "]).");
            if (role.equals("assistant")) {
                assistant(message, i, ownApi, problems);
            } else if (role.equals("tool")) {
                toolCallId(message.path("tool_call_id").asText(), problems);
            }
            previous = role;
        }
    }

    private static void assistant(JsonNode message, int at, boolean ownApi, WireProblems problems) {
        JsonNode content = message.get("content");
        boolean hasContent =
                content != null && !content.isNull() && !content.asText().isEmpty();
        boolean hasCalls = WireProblems.isNonEmptyArray(message.get("tool_calls"));
        // Recorded: "Assistant message must have either content or tool_calls, but not none."
        // (mistralai/mistral-vibe#555).
        problems.require(
                hasContent || hasCalls,
                "Assistant message must have either content or tool_calls, but not none (messages[" + at + "]).");
        for (JsonNode call : message.path("tool_calls")) {
            toolCallId(call.path("id").asText(), problems);
        }
        if (ownApi) {
            // Recorded: 422 extra_forbidden at ["body","messages",2,"assistant","reasoning_content"]
            // (NousResearch/hermes-agent#11390).
            for (String field : REASONING_FIELDS) {
                problems.require(
                        !message.has(field),
                        "Extra inputs are not permitted: body.messages." + at + ".assistant." + field
                                + " (extra_forbidden).");
            }
        }
    }

    /**
     * Recorded: "Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9." (karthink/gptel#1203,
     * langchain-ai/langchain#24668), for a call's id and a tool message's alike.
     */
    private static void toolCallId(String id, WireProblems problems) {
        problems.require(
                TOOL_CALL_ID.matcher(id).matches(),
                "Tool call id was " + id + " but must be a-z, A-Z, 0-9, with a length of 9.");
    }
}
