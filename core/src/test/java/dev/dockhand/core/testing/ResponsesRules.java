package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.isNonEmptyArray;
import static dev.dockhand.core.testing.WireProblems.isNonEmptyText;
import static dev.dockhand.core.testing.WireProblems.isObject;
import static dev.dockhand.core.testing.WireProblems.isText;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What OpenAI's Responses API rejects in a request, written from its API reference (input items, function tools,
 * {@code store}, {@code include}) and from the 400s users met in public issues, cited at each rule; the wording is
 * ours. A request Dockhand sends keeps no state at OpenAI ({@code store: false}), so everything the model needs is in
 * {@code input} and nothing may be looked up by id.
 */
final class ResponsesRules {
    private static final Set<String> ROLES = Set.of("user", "assistant", "system", "developer");
    private static final Set<String> PHASES = Set.of("commentary", "final_answer");
    private static final Set<String> EFFORTS = Set.of("none", "minimal", "low", "medium", "high", "xhigh");
    private static final Set<String> SUMMARIES = Set.of("auto", "concise", "detailed");

    private ResponsesRules() {}

    static void check(JsonNode body, WireProblems problems) {
        problems.require(isNonEmptyText(body.get("model")), "Missing required parameter: 'model'.");
        boolean stored = !body.path("store").isBoolean() || body.path("store").asBoolean();
        JsonNode input = body.get("input");
        if (isText(input)) {
            return;
        }
        if (!isNonEmptyArray(input)) {
            problems.add("Invalid 'input': expected a string or a non-empty array of items.");
            return;
        }
        Map<String, Integer> calls = new HashMap<>();
        Set<String> answered = new HashSet<>();
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String where = "input[" + i + "]";
            String type = item.path("type").asText(item.has("role") ? "message" : "");
            switch (type) {
                case "message" -> message(item, where, problems);
                case "function_call" -> {
                    call(item, where, problems);
                    String id = item.path("call_id").asText();
                    callIdLength(id, where, problems);
                    problems.require(
                            calls.putIfAbsent(id, i) == null,
                            "Invalid '" + where + ".call_id': " + id + " is used by an earlier function_call.");
                }
                case "function_call_output" -> {
                    String id = item.path("call_id").asText();
                    callIdLength(id, where, problems);
                    // Recorded: "No tool call found for function call output with call_id call_..."
                    // (openai/openai-agents-python#1061).
                    problems.require(
                            calls.containsKey(id),
                            "No tool call found for function call output with call_id " + id + ".");
                    problems.require(
                            answered.add(id), "Invalid '" + where + "': call_id " + id + " is answered twice.");
                    problems.require(
                            isText(item.get("output")) || isNonEmptyArray(item.get("output")),
                            "Invalid '" + where + ".output': expected a string.");
                }
                case "reasoning" -> reasoning(input, i, stored, problems);
                case "item_reference" -> problems.require(
                        stored,
                        "Item with id '" + item.path("id").asText() + "' not found. Items are not persisted"
                                + " when `store` is set to false.");
                default -> problems.add(
                        "Invalid value for '" + where + ".type': " + WireProblems.quote(item.get("type")) + ".");
            }
        }
        // Recorded: "No tool output found for function call call_..." (anomalyco/opencode, openai/codex issues).
        Set<String> unanswered = new LinkedHashSet<>(calls.keySet());
        unanswered.removeAll(answered);
        for (String id : unanswered) {
            problems.add("No tool output found for function call " + id + ".");
        }
        tools(body.get("tools"), problems);
        reasoningParameter(body, problems);
        ImageRules.responses(body, problems);
    }

    /**
     * Recorded: "Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64, but got a
     * string with length 116 instead." (AnswerDotAI/fastllm#45).
     */
    private static void callIdLength(String id, String where, WireProblems problems) {
        problems.require(
                id.length() <= 64,
                "Invalid '" + where + ".call_id': string too long. Expected a string with maximum length 64, but got"
                        + " a string with length " + id.length() + " instead.");
    }

    private static void message(JsonNode item, String where, WireProblems problems) {
        String role = item.path("role").asText();
        if (!ROLES.contains(role)) {
            problems.add("Invalid value for '" + where + ".role': " + WireProblems.quote(item.get("role")) + ".");
            return;
        }
        JsonNode content = item.get("content");
        if (isText(content)) {
            // A plain string is an easy input message, for any role.
        } else if (isNonEmptyArray(content)) {
            for (int p = 0; p < content.size(); p++) {
                String part = content.get(p).path("type").asText();
                // Recorded: "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'."
                // (assistant history sent with user parts).
                boolean fits = role.equals("assistant")
                        ? part.equals("output_text") || part.equals("refusal")
                        : part.startsWith("input_");
                problems.require(
                        fits,
                        "Invalid value for '" + where + ".content[" + p + "].type': '" + part + "' in a " + role
                                + " message.");
                problems.require(
                        isText(content.get(p).get("text")) || !part.endsWith("_text"),
                        "Missing required parameter: '" + where + ".content[" + p + "].text'.");
            }
        } else {
            problems.add("Invalid '" + where + ".content': expected a string or an array of parts.");
        }
        JsonNode phase = item.get("phase");
        if (phase != null && !phase.isNull()) {
            // The phase labels assistant messages only (OpenAI's MessagePhase: "Not used for user messages").
            problems.require(
                    role.equals("assistant") && PHASES.contains(phase.asText()),
                    "Invalid value for '" + where + ".phase': " + WireProblems.quote(phase) + " on a " + role
                            + " message.");
        }
    }

    private static void call(JsonNode item, String where, WireProblems problems) {
        problems.require(isNonEmptyText(item.get("call_id")), "Missing required parameter: '" + where + ".call_id'.");
        JsonNode name = item.get("name");
        problems.require(
                isNonEmptyText(name)
                        && WireProblems.FUNCTION_NAME.matcher(name.asText()).matches(),
                "Invalid '" + where + ".name': " + WireProblems.quote(name) + " does not match"
                        + " '^[a-zA-Z0-9_-]{1,64}$'.");
        // The arguments are the JSON text the model wrote, never an object.
        problems.require(
                isText(item.get("arguments")),
                "Invalid type for '" + where + ".arguments': expected a string, but got "
                        + WireProblems.quote(item.get("arguments")) + " instead.");
    }

    /**
     * A reasoning item goes back whole: with store false it cannot be found by its id, so its encrypted content must
     * come with it (recorded: "Item with id 'rs_…' not found. Items are not persisted when `store` is set to false.",
     * can1357/oh-my-pi#41, anomalyco/opencode#7724), and the item it led to must follow it in the same reply
     * (recorded: "Item 'rs_…' of type 'reasoning' was provided without its required following item.").
     */
    private static void reasoning(JsonNode input, int at, boolean stored, WireProblems problems) {
        JsonNode item = input.get(at);
        String where = "input[" + at + "]";
        String id = item.path("id").asText();
        problems.require(
                stored || isNonEmptyText(item.get("encrypted_content")),
                "Item with id '" + id + "' not found. Items are not persisted when `store` is set to false.");
        problems.require(item.path("summary").isArray(), "Missing required parameter: '" + where + ".summary'.");
        int next = at + 1;
        while (next < input.size() && input.get(next).path("type").asText().equals("reasoning")) {
            next++;
        }
        boolean followed = next < input.size()
                && (input.get(next).path("type").asText().equals("function_call")
                        || input.get(next).path("role").asText().equals("assistant"));
        problems.require(
                followed, "Item '" + id + "' of type 'reasoning' was provided without its required following item.");
    }

    private static void tools(JsonNode tools, WireProblems problems) {
        if (tools == null) {
            return;
        }
        if (!tools.isArray()) {
            problems.add("Invalid 'tools': expected an array.");
            return;
        }
        for (int t = 0; t < tools.size(); t++) {
            JsonNode tool = tools.get(t);
            String where = "tools[" + t + "]";
            problems.require(
                    "function".equals(tool.path("type").asText()),
                    "Invalid value for '" + where + ".type': " + WireProblems.quote(tool.get("type")) + ".");
            problems.require(
                    WireProblems.FUNCTION_NAME
                            .matcher(tool.path("name").asText())
                            .matches(),
                    "Invalid '" + where + ".name': does not match '^[a-zA-Z0-9_-]{1,64}$'.");
            JsonNode parameters = tool.get("parameters");
            if (!isObject(parameters)) {
                problems.add("Invalid '" + where + ".parameters': expected an object.");
                continue;
            }
            // Strict is the default for Responses function tools, and a strict schema must forbid other properties
            // and require every one it has (the API reference on function tools, "strict").
            boolean strict =
                    !tool.path("strict").isBoolean() || tool.path("strict").asBoolean();
            if (strict) {
                Set<String> required = new HashSet<>();
                parameters.path("required").forEach(name -> required.add(name.asText()));
                Set<String> properties = new HashSet<>();
                parameters.path("properties").fieldNames().forEachRemaining(properties::add);
                problems.require(
                        parameters.path("additionalProperties").isBoolean()
                                && !parameters.path("additionalProperties").asBoolean()
                                && required.containsAll(properties),
                        "Invalid schema for function '" + tool.path("name").asText() + "': In context=(), 'required'"
                                + " is required to be supplied and to be an array including every key in"
                                + " properties, and 'additionalProperties' must be false.");
            }
        }
    }

    /** The reasoning parameter: its values, and models that do not reason refuse it. */
    private static void reasoningParameter(JsonNode body, WireProblems problems) {
        JsonNode reasoning = body.get("reasoning");
        if (reasoning == null || reasoning.isNull()) {
            return;
        }
        String model = body.path("model").asText();
        // Recorded: "Unsupported parameter: 'reasoning.effort' is not supported with this model." (gpt-4o, gpt-4.1).
        problems.require(
                !model.startsWith("gpt-4") && !model.startsWith("gpt-3"),
                "Unsupported parameter: 'reasoning.effort' is not supported with this model.");
        JsonNode effort = reasoning.get("effort");
        problems.require(
                effort == null || effort.isNull() || EFFORTS.contains(effort.asText()),
                "Invalid value for 'reasoning.effort': " + WireProblems.quote(effort) + ".");
        problems.require(
                effort == null || effort.isNull() || !OpenAiRules.refusesGrokEffort(model),
                "Model " + model + " does not support parameter reasoningEffort.");
        JsonNode summary = reasoning.get("summary");
        problems.require(
                summary == null || summary.isNull() || SUMMARIES.contains(summary.asText()),
                "Invalid value for 'reasoning.summary': " + WireProblems.quote(summary) + ".");
    }
}
