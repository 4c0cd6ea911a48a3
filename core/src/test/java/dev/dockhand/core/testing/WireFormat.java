package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import okhttp3.mockwebserver.MockResponse;

/**
 * The wire formats Dockhand speaks, each known by its endpoint's path as a real server knows it: the rules a
 * request must keep, and the 400 its API answers when one is broken. The error bodies have each API's shape (as in the
 * providers' {@code error.json} fixtures); the messages are ours.
 */
public enum WireFormat {
    /** {@code POST …/chat/completions}. */
    OPENAI("OpenAI chat completions", OpenAiRules::check, message -> {
        ObjectNode body = Json.object();
        body.putObject("error")
                .put("message", message)
                .put("type", "invalid_request_error")
                .putNull("param")
                .putNull("code");
        return body;
    }),
    /** {@code POST …/responses}: OpenAI's Responses API, its errors shaped as chat completions' are. */
    OPENAI_RESPONSES("OpenAI Responses", ResponsesRules::check, message -> {
        ObjectNode body = Json.object();
        body.putObject("error")
                .put("message", message)
                .put("type", "invalid_request_error")
                .putNull("param")
                .putNull("code");
        return body;
    }),
    /** {@code POST /v1/messages}. */
    ANTHROPIC("Anthropic messages", AnthropicRules::check, message -> {
        ObjectNode body = Json.object().put("type", "error");
        body.putObject("error").put("type", "invalid_request_error").put("message", message);
        return body.put("request_id", "req_scripted_model");
    }),
    /** {@code POST /v1beta/models/{model}:streamGenerateContent}. */
    GEMINI("Gemini generateContent", (Rules) GeminiRules::check, message -> {
        ObjectNode body = Json.object();
        body.putObject("error").put("code", 400).put("message", message).put("status", "INVALID_ARGUMENT");
        return body;
    }),
    /** {@code POST /api/chat}. */
    OLLAMA("Ollama chat", OllamaRules::check, message -> Json.object().put("error", message));

    private final String title;
    private final Rules rules;
    private final Function<String, ObjectNode> errorBody;

    /** A format's rules; some depend on the model, which Gemini takes in the path, not the body. */
    @FunctionalInterface
    interface Rules {
        void check(String path, JsonNode body, WireProblems problems);
    }

    WireFormat(String title, BiConsumer<JsonNode, WireProblems> rules, Function<String, ObjectNode> errorBody) {
        this(title, (Rules) (path, body, problems) -> rules.accept(body, problems), errorBody);
    }

    WireFormat(String title, Rules rules, Function<String, ObjectNode> errorBody) {
        this.title = title;
        this.rules = rules;
        this.errorBody = errorBody;
    }

    /** The format a request to {@code path} (with or without its query) is in, if it is one of them. */
    public static Optional<WireFormat> ofPath(String path) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (bare.endsWith("/chat/completions")) {
            return Optional.of(OPENAI);
        } else if (bare.endsWith("/responses")) {
            return Optional.of(OPENAI_RESPONSES);
        } else if (bare.endsWith("/v1/messages")) {
            return Optional.of(ANTHROPIC);
        } else if (bare.endsWith(":streamGenerateContent") || bare.endsWith(":generateContent")) {
            return Optional.of(GEMINI);
        } else if (bare.endsWith("/api/chat")) {
            return Optional.of(OLLAMA);
        }
        return Optional.empty();
    }

    /** Every rule {@code body} breaks, each a sentence; empty when the API would accept it. */
    public List<String> problems(JsonNode body) {
        return problems("", body);
    }

    /** Every rule a request to {@code path} (with its query) with {@code body} breaks, model-specific ones included. */
    public List<String> problems(String path, JsonNode body) {
        WireProblems problems = new WireProblems();
        if (body == null || !body.isObject()) {
            problems.add("The request body is not a JSON object.");
        } else {
            // Recorded from Anthropic (anthropics/claude-code#3277): "The request body is not valid JSON: no low
            // surrogate in string: line 1 column 217026 (char 217025)". Held against every API: a lone surrogate is
            // no Unicode text, and strict JSON readers refuse it.
            WireProblems.loneSurrogate(body, "")
                    .ifPresent(where -> problems.add(
                            "The request body is not valid JSON: no low surrogate in string (at " + where + ")"));
            rules.check(path, body, problems);
        }
        return problems.list();
    }

    /** The 400 this API answers to a request that breaks its rules. */
    public MockResponse rejection(List<String> problems) {
        return new MockResponse()
                .setResponseCode(400)
                .setHeader("Content-Type", "application/json")
                .setBody(Json.write(errorBody.apply(String.join("\n", problems))));
    }

    @Override
    public String toString() {
        return title;
    }
}
