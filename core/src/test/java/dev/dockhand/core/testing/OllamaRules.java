package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.isNonEmptyText;
import static dev.dockhand.core.testing.WireProblems.isObject;
import static dev.dockhand.core.testing.WireProblems.isText;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What Ollama's {@code /api/chat} rejects, and what Dockhand promises it on top. Ollama decodes the body into Go
 * structs, so a field of the wrong JSON type is a 400 (content a string, a call's arguments an object), but it does
 * not pair tool results with calls: it renders them into the model's template in order, matched by position and
 * {@code tool_name}. A result out of place would reach the model as an answer to the wrong call, so the pairing rule
 * is Dockhand's own. Hand-written from Ollama's API documentation; the wording is ours.
 */
final class OllamaRules {
    private static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool");

    private OllamaRules() {}

    static void check(JsonNode body, WireProblems problems) {
        problems.require(isNonEmptyText(body.get("model")), "model is required");
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray()) {
            problems.add("messages: expected an array");
            return;
        }
        int i = 0;
        while (i < messages.size()) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            JsonNode content = message.get("content");
            problems.require(
                    ROLES.contains(role),
                    "messages[" + i + "]: invalid role " + WireProblems.quote(message.get("role")));
            problems.require(
                    content == null || isText(content),
                    "messages[" + i + "].content: cannot unmarshal " + WireProblems.quote(content) + " into a string");
            problems.require(
                    !role.equals("tool"),
                    "messages[" + i + "]: a tool message must follow the assistant" + " message whose call it answers");
            i = role.equals("assistant") ? assistant(messages, i, problems) : i + 1;
        }
        for (JsonNode tool : body.path("tools")) {
            problems.require(isNonEmptyText(tool.path("function").get("name")), "tools: a function needs a name");
        }
        ImageRules.ollama(body, problems);
    }

    /** Checks the assistant message at {@code at} and the tool messages answering it; returns the next index. */
    private static int assistant(JsonNode messages, int at, WireProblems problems) {
        List<String> calls = new ArrayList<>();
        JsonNode toolCalls = messages.get(at).get("tool_calls");
        if (toolCalls != null && !toolCalls.isNull()) {
            for (int c = 0; c < toolCalls.size(); c++) {
                String where = "messages[" + at + "].tool_calls[" + c + "].function";
                JsonNode function = toolCalls.get(c).path("function");
                problems.require(isNonEmptyText(function.get("name")), where + ".name: must not be empty");
                problems.require(
                        !function.has("arguments") || isObject(function.get("arguments")),
                        where + ".arguments: cannot unmarshal " + WireProblems.quote(function.get("arguments"))
                                + " into an object");
                calls.add(function.path("name").asText());
            }
        }
        List<String> answered = new ArrayList<>();
        int next = at + 1;
        while (next < messages.size()
                && messages.get(next).path("role").asText().equals("tool")) {
            JsonNode result = messages.get(next);
            problems.require(
                    isText(result.get("content")), "messages[" + next + "].content: a tool result needs" + " content");
            answered.add(result.path("tool_name").asText());
            next++;
        }
        problems.require(
                calls.equals(answered),
                "messages[" + at + "]: the calls " + calls + " must be answered by"
                        + " one tool message each, in order, right after them; found " + answered);
        return next;
    }
}
