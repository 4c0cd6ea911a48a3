package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.isNonEmptyArray;
import static dev.dockhand.core.testing.WireProblems.isNonEmptyText;
import static dev.dockhand.core.testing.WireProblems.isObject;
import static dev.dockhand.core.testing.WireProblems.isText;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an OpenAI-compatible server rejects in a chat-completions request. Hand-written from the API reference and
 * from 400s recorded in public issues (cited at each rule); the wording is ours. One rule is Dockhand's own, stricter
 * than OpenAI: results come in the calls' order, and no call id is used twice in a conversation. DeepSeek's models and
 * Mistral's ({@link MistralRules}) are held to their servers' rules too.
 */
final class OpenAiRules {
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    private OpenAiRules() {}

    static void check(JsonNode body, WireProblems problems) {
        problems.require(isNonEmptyText(body.get("model")), "You must provide a model parameter.");
        JsonNode messages = body.get("messages");
        if (!isNonEmptyArray(messages)) {
            problems.add("Invalid 'messages': expected a non-empty array.");
            return;
        }
        Set<String> seenIds = new HashSet<>();
        boolean deepSeek = isDeepSeek(body.path("model").asText());
        int i = 0;
        while (i < messages.size()) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            if (!ROLES.contains(role)) {
                problems.add("Invalid 'messages[" + i + "].role': " + WireProblems.quote(message.get("role")) + ".");
            } else if (role.equals("tool")) {
                // Recorded: farhan0167/otto-m8#30 and OpenAI's "messages with role 'tool' must be a response to a
                // preceding message with 'tool_calls'".
                problems.add("Invalid 'messages[" + i + "]': a message with role 'tool' must answer a preceding"
                        + " message with 'tool_calls'.");
            } else if (role.equals("assistant")) {
                if (deepSeek) {
                    deepSeekReasoning(message, i, problems);
                }
                i = assistant(messages, i, seenIds, problems);
                continue;
            } else {
                problems.require(
                        isText(message.get("content")) || isNonEmptyArray(message.get("content")),
                        "Invalid 'messages[" + i + "].content': expected a string or an array of parts.");
            }
            i++;
        }
        tools(body.get("tools"), problems);
        String model = body.path("model").asText();
        problems.require(
                !body.has("reasoning_effort") || !refusesGrokEffort(model),
                "Model " + model + " does not support parameter reasoningEffort.");
        ImageRules.openAi(body, problems);
        if (MistralRules.isMistral(body.path("model").asText())) {
            MistralRules.check(body, problems);
        }
    }

    /**
     * xAI's grok models but grok-3-mini refuse an effort on both of xAI's wires. Recorded: "Model grok-4-latest does
     * not support parameter reasoningEffort." (BerriAI/litellm#16265), "Model grok-4-1-fast-reasoning does not support
     * parameter reasoningEffort." (charmbracelet/crush#2362); on /v1/responses grok-4, grok-4-fast, grok-4-1-fast and
     * grok-code-fast-1 refuse {@code reasoning.effort} alike (NousResearch/hermes-agent#23435). Newer grok models
     * (grok-4.3) take it, but refusing it here only holds Dockhand to leaving it out.
     */
    static boolean refusesGrokEffort(String model) {
        return model.startsWith("grok-") && !model.startsWith("grok-3-mini");
    }

    /** DeepSeek's own API names its models {@code deepseek-…}; behind gateways they are {@code owner/model}. */
    private static boolean isDeepSeek(String model) {
        return !model.contains("/") && model.startsWith("deepseek-");
    }

    /**
     * DeepSeek's thinking mode (deepseek-reasoner, and the V4 models by default) needs the {@code reasoning_content}
     * of every assistant message that made tool calls sent back: within the turn ("Missing `reasoning_content` field
     * in the assistant message at message index 2", abhigyanpatwari/GitNexus#43, decolua/9router#355) and, since V4,
     * in every later request ("The `reasoning_content` in the thinking mode must be passed back to the API.",
     * anomalyco/opencode#24083; DeepSeek's thinking-mode guide: "must be passed back ... in all subsequent
     * requests"). An empty string passes (deepseek-ai/deepseek-harness#739 fixed its 400 by sending it).
     */
    private static void deepSeekReasoning(JsonNode message, int at, WireProblems problems) {
        JsonNode calls = message.get("tool_calls");
        JsonNode reasoning = message.get("reasoning_content");
        if (reasoning != null && !reasoning.isNull()) {
            problems.require(
                    reasoning.isTextual(), "Invalid 'messages[" + at + "].reasoning_content': expected a string.");
        } else if (isNonEmptyArray(calls)) {
            problems.add("Missing `reasoning_content` field in the assistant message at message index " + at
                    + ". The reasoning_content in the thinking mode must be passed back to the API.");
        }
    }

    /** Checks the assistant message at {@code at} and the tool messages answering it; returns the next index. */
    private static int assistant(JsonNode messages, int at, Set<String> seenIds, WireProblems problems) {
        JsonNode message = messages.get(at);
        JsonNode calls = message.get("tool_calls");
        boolean hasCalls = calls != null && !calls.isNull();
        JsonNode content = message.get("content");
        problems.require(
                isText(content) || (hasCalls && (content == null || content.isNull())),
                "Invalid 'messages[" + at + "].content': an assistant message without 'tool_calls' needs content.");
        if (!hasCalls) {
            return at + 1;
        }
        if (!isNonEmptyArray(calls)) {
            problems.add("Invalid 'messages[" + at + "].tool_calls': expected a non-empty array.");
            return at + 1;
        }
        List<String> expected = new ArrayList<>();
        for (int c = 0; c < calls.size(); c++) {
            String where = "messages[" + at + "].tool_calls[" + c + "]";
            JsonNode call = calls.get(c);
            String id = call.path("id").asText();
            problems.require(!id.isEmpty(), "Invalid '" + where + ".id': empty string.");
            // Recorded: "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum
            // length 40, but got a string with length 83 instead." (openclaw/openclaw#875).
            problems.require(
                    id.length() <= 40,
                    "Invalid '" + where + ".id': string too long. Expected a string with maximum length 40, but got a"
                            + " string with length " + id.length() + " instead.");
            problems.require(seenIds.add(id), "Invalid '" + where + ".id': " + id + " is used twice.");
            problems.require("function".equals(call.path("type").asText()), "Invalid '" + where + ".type'.");
            function(call.get("function"), where, problems);
            expected.add(id);
        }
        // Recorded: "An assistant message with 'tool_calls' must be followed by tool messages responding to each
        // 'tool_call_id'" (farhan0167/otto-m8#30).
        List<String> answered = new ArrayList<>();
        int next = at + 1;
        while (next < messages.size()
                && messages.get(next).path("role").asText().equals("tool")) {
            JsonNode result = messages.get(next);
            answered.add(result.path("tool_call_id").asText());
            problems.require(
                    isText(result.get("content")) || isNonEmptyArray(result.get("content")),
                    "Invalid 'messages[" + next + "].content': expected a string or an array of parts.");
            next++;
        }
        problems.require(
                expected.equals(answered),
                "An assistant message with 'tool_calls' must be followed by one tool message per call, in order:"
                        + " messages[" + at + "] made " + expected + " but was answered by " + answered + ".");
        return next;
    }

    private static void function(JsonNode function, String where, WireProblems problems) {
        if (!isObject(function)) {
            problems.add("Missing required parameter: '" + where + ".function'.");
            return;
        }
        JsonNode name = function.get("name");
        // Recorded: "Invalid 'messages[67].tool_calls[0].function.name': empty string" (continuedev/continue#9784), and
        // "Invalid 'messages[9].tool_calls[0].function.name': string does not match pattern. Expected a string that
        // matches the pattern '^[a-zA-Z0-9_-]+$'." (mcp-use/mcp-use#90).
        problems.require(isNonEmptyText(name), "Invalid '" + where + ".function.name': empty string.");
        problems.require(
                !isNonEmptyText(name)
                        || WireProblems.FUNCTION_NAME.matcher(name.asText()).matches(),
                "Invalid '" + where + ".function.name': " + WireProblems.quote(name)
                        + " does not match '^[a-zA-Z0-9_-]{1,64}$'.");
        // OpenAI takes any string; DeepSeek rejects an empty one ("function/name/arguments cannot be empty",
        // esengine/DeepSeek-Reasonix#6192), so the family's rule is a non-empty string.
        problems.require(
                isNonEmptyText(function.get("arguments")),
                "Invalid '" + where + ".function.arguments': expected a non-empty string.");
    }

    private static void tools(JsonNode tools, WireProblems problems) {
        if (tools == null) {
            return;
        }
        if (!isNonEmptyArray(tools)) {
            problems.add("Invalid 'tools': expected a non-empty array.");
            return;
        }
        for (int t = 0; t < tools.size(); t++) {
            JsonNode function = tools.get(t).path("function");
            problems.require(
                    WireProblems.FUNCTION_NAME
                            .matcher(function.path("name").asText())
                            .matches(),
                    "Invalid 'tools[" + t + "].function.name': does not match '^[a-zA-Z0-9_-]{1,64}$'.");
            problems.require(
                    isObject(function.get("parameters")),
                    "Invalid 'tools[" + t + "].function.parameters': expected an object.");
        }
    }
}
