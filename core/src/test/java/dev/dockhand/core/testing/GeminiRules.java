package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.isNonEmptyArray;
import static dev.dockhand.core.testing.WireProblems.isNonEmptyText;
import static dev.dockhand.core.testing.WireProblems.isObject;
import static dev.dockhand.core.testing.WireProblems.quote;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Gemini's generateContent rejects in a request. Hand-written from the API reference (a part is a protobuf
 * {@code oneof}, so an empty text is no data at all), from the thought-signature and thinking guides (cited at their
 * rules) and from 400s recorded in public issues (cited at each rule); the wording is ours. Some rules depend on the
 * model, which the request names in its path. One rule is Dockhand's own: user and model turns alternate, as the
 * writer merges them.
 */
final class GeminiRules {
    private static final String PREFIX = "* GenerateContentRequest.";
    private static final Set<String> DATA = Set.of(
            "text",
            "inlineData",
            "fileData",
            "functionCall",
            "functionResponse",
            "executableCode",
            "codeExecutionResult");
    /** FunctionDeclaration.name: a letter or underscore first, then letters, digits, _ . : -, at most 64. */
    private static final Pattern DECLARED_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}");

    /** Gemini 3 and later, and the aliases that follow the newest generation. */
    private static final Pattern GEMINI_3 =
            Pattern.compile("gemini-(?:[3-9]|\\d{2,})(?:\\.\\d+)?-.*|gemini-(?:flash|flash-lite|pro)-latest");

    private static final Pattern GEMINI_2 = Pattern.compile("gemini-[12](?:\\.\\d+)?-.*");
    private static final Set<String> LEVELS = Set.of("minimal", "low", "medium", "high");

    private GeminiRules() {}

    static void check(String path, JsonNode body, WireProblems problems) {
        check(body, problems);
        String model = model(path);
        JsonNode contents = body.get("contents");
        if (GEMINI_3.matcher(model).matches() && isNonEmptyArray(contents)) {
            callSignatures(contents, problems);
        }
        thinking(model, body.path("generationConfig").path("thinkingConfig"), problems);
        ImageRules.gemini(model, body, problems);
    }

    /** The model a request path names: {@code …/models/MODEL:streamGenerateContent?alt=sse}; "" when none. */
    static String model(String path) {
        int at = path.indexOf("/models/");
        if (at < 0) {
            return "";
        }
        String rest = path.substring(at + "/models/".length());
        int colon = rest.indexOf(':');
        return colon < 0 ? rest : rest.substring(0, colon);
    }

    /**
     * Gemini 3's signature check, as the thought-signatures guide states it: the current turn begins at the newest
     * user content with standard content (not a functionResponse); in every model step after it, the first
     * functionCall part must carry its thoughtSignature, or the request fails with a 400 ("Function call FC1 in the
     * 1. content block is missing a thought_signature"). Earlier turns and later parallel calls are not checked.
     */
    private static void callSignatures(JsonNode contents, WireProblems problems) {
        int start = -1;
        for (int i = contents.size() - 1; i >= 0 && start < 0; i--) {
            JsonNode content = contents.get(i);
            if (content.path("role").asText().equals("user")) {
                for (JsonNode part : content.path("parts")) {
                    if (!part.has("functionResponse") && !part.has("functionCall")) {
                        start = i;
                        break;
                    }
                }
            }
        }
        for (int i = start + 1; i < contents.size(); i++) {
            JsonNode content = contents.get(i);
            if (!content.path("role").asText().equals("model")) {
                continue;
            }
            for (JsonNode part : content.path("parts")) {
                if (part.has("functionCall")) {
                    problems.require(
                            isNonEmptyText(part.get("thoughtSignature")),
                            "Unable to submit request because function call `"
                                    + part.get("functionCall").path("name").asText() + "` in the " + i
                                    + ". content block is missing a `thought_signature`.");
                    break;
                }
            }
        }
    }

    /**
     * The thinking guide's limits: a request may not carry both thinking_level and the legacy thinking_budget (400);
     * Gemini 2.5 and earlier do not take thinkingLevel; Gemini 3 Pro takes only low and high.
     */
    private static void thinking(String model, JsonNode config, WireProblems problems) {
        if (!config.isObject()) {
            return;
        }
        String where = PREFIX + "generation_config.thinking_config";
        JsonNode level = config.get("thinkingLevel");
        problems.require(
                level == null || !config.has("thinkingBudget"),
                where + ": thinking_level and thinking_budget cannot be used in one request.");
        if (level != null) {
            String value = level.asText().toLowerCase(java.util.Locale.ROOT);
            problems.require(
                    !GEMINI_2.matcher(model).matches(),
                    where + ".thinking_level: this model does not support thinking_level; use thinking_budget.");
            problems.require(LEVELS.contains(value), where + ".thinking_level: invalid value " + quote(level) + ".");
            problems.require(
                    !(model.startsWith("gemini-3-pro") && value.equals("medium")),
                    where + ".thinking_level: " + model + " supports only low and high.");
        }
        JsonNode budget = config.get("thinkingBudget");
        problems.require(budget == null || budget.isIntegralNumber(), where + ".thinking_budget: must be an integer.");
    }

    static void check(JsonNode body, WireProblems problems) {
        JsonNode contents = body.get("contents");
        if (!isNonEmptyArray(contents)) {
            problems.add(PREFIX + "contents: contents is not specified");
            return;
        }
        List<String> calls = List.of();
        for (int i = 0; i < contents.size(); i++) {
            JsonNode content = contents.get(i);
            String where = PREFIX + "contents[" + i + "]";
            String role = content.path("role").asText();
            if (!role.equals("user") && !role.equals("model")) {
                problems.add(where + ".role: Please use a valid role: user, model.");
                continue;
            }
            problems.require(
                    i == 0 || !role.equals(contents.get(i - 1).path("role").asText()),
                    where + ": user and model turns must alternate; found two " + role + " turns");
            if (!isNonEmptyArray(content.get("parts"))) {
                problems.add(where + ".parts: contents.parts must not be empty.");
                calls = List.of();
                continue;
            }
            parts(content.get("parts"), role, where, problems);
            responses(calls, content, role, where, problems);
            calls = role.equals("model") ? names(content.get("parts"), "functionCall") : List.of();
        }
        problems.require(
                calls.isEmpty(),
                PREFIX + "contents: the function call turn at the end has no function" + " response turn after it.");
        // Recorded: "Please ensure that multiturn requests ends with a user role or a function response."
        // (songquanpeng/one-api#836); Vertex AI: "Requests ending with a model turn are not supported"
        // (decolua/9router#3055). A function response is a part of a user turn here.
        problems.require(
                contents.get(contents.size() - 1).path("role").asText().equals("user"),
                "Please ensure that multiturn requests ends with a user role or a function response.");
        JsonNode system = body.get("systemInstruction");
        if (system != null) {
            parts(system.get("parts"), "system", PREFIX + "system_instruction", problems);
        }
        tools(body.get("tools"), problems);
    }

    private static void parts(JsonNode parts, String role, String where, WireProblems problems) {
        if (!isNonEmptyArray(parts)) {
            problems.add(where + ".parts: must not be empty.");
            return;
        }
        for (int p = 0; p < parts.size(); p++) {
            JsonNode part = parts.get(p);
            String at = where + ".parts[" + p + "]";
            boolean hasData = DATA.stream()
                    .anyMatch(field -> part.has(field)
                            && !(field.equals("text")
                                    && part.path("text").asText().isEmpty()));
            problems.require(hasData, at + ".data: required oneof field 'data' must have one initialized field");
            if (part.has("functionCall")) {
                JsonNode call = part.get("functionCall");
                problems.require(role.equals("model"), at + ": a function call must be in a model turn.");
                problems.require(
                        WireProblems.FUNCTION_NAME
                                .matcher(call.path("name").asText())
                                .matches(),
                        at + ".function_call.name: Invalid function name " + WireProblems.quote(call.get("name"))
                                + ".");
                problems.require(
                        !call.has("args") || isObject(call.get("args")),
                        at + ".function_call.args: must be an object.");
            }
            if (part.has("functionResponse")) {
                JsonNode response = part.get("functionResponse");
                problems.require(role.equals("user"), at + ": a function response must be in a user turn.");
                // Recorded: "function_response.name: Name cannot be empty." (FoundationAgents/OpenManus#824).
                problems.require(
                        isNonEmptyText(response.get("name")),
                        at + ".function_response.name: Name cannot be" + " empty.");
                // FunctionResponse.name has FunctionCall.name's rule in the API reference.
                problems.require(
                        !isNonEmptyText(response.get("name"))
                                || WireProblems.FUNCTION_NAME
                                        .matcher(response.get("name").asText())
                                        .matches(),
                        at + ".function_response.name: Invalid function name "
                                + WireProblems.quote(response.get("name")) + ".");
                problems.require(
                        isObject(response.get("response")), at + ".function_response.response: must be an object.");
            }
        }
    }

    /**
     * Checks that the turn after a function call turn answers it: as many functionResponse parts as there were calls
     * (recorded: "the number of function response parts is equal to the number of function call parts",
     * gemini-cli#4217), with the calls' names in order; and that responses answer nothing else.
     */
    private static void responses(
            List<String> calls, JsonNode content, String role, String where, WireProblems problems) {
        List<String> responses = names(content.get("parts"), "functionResponse");
        if (calls.isEmpty()) {
            problems.require(
                    responses.isEmpty(),
                    where + ": Please ensure that function response turn comes"
                            + " immediately after a function call turn.");
            return;
        }
        problems.require(
                role.equals("user") && responses.size() == calls.size(),
                where + ": Please ensure that the"
                        + " number of function response parts is equal to the number of function call parts of the function"
                        + " call turn.");
        problems.require(
                responses.size() != calls.size() || responses.equals(calls),
                where + ": the function responses " + responses + " do not answer the calls " + calls + " in order.");
    }

    private static List<String> names(JsonNode parts, String field) {
        List<String> names = new ArrayList<>();
        for (JsonNode part : parts) {
            if (part.has(field)) {
                names.add(part.get(field).path("name").asText());
            }
        }
        return names;
    }

    private static void tools(JsonNode tools, WireProblems problems) {
        if (tools == null) {
            return;
        }
        for (int t = 0; t < tools.size(); t++) {
            JsonNode declarations = tools.get(t).path("functionDeclarations");
            for (int d = 0; d < declarations.size(); d++) {
                JsonNode declaration = declarations.get(d);
                problems.require(
                        DECLARED_NAME.matcher(declaration.path("name").asText()).matches(),
                        PREFIX + "tools[" + t + "].function_declarations: Invalid function name "
                                + WireProblems.quote(declaration.get("name")) + ".");
                if (declaration.has("parameters")) {
                    GeminiSchemaRules.check(
                            declaration.get("parameters"),
                            "tools[" + t + "].function_declarations[" + d + "].parameters",
                            problems);
                }
            }
        }
    }
}
