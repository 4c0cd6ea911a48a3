package dev.dockhand.core.conversation;

import java.util.Objects;

/**
 * One tool call as the model made it. {@code arguments} is the model's raw text, which may not even be JSON: the
 * scheduler, not the provider, decides what to do with bad arguments.
 */
public record ToolCall(String id, String name, String arguments) {

    /**
     * The name a call gets when the model streamed none, so that it is answered (with an error asking for a named
     * call) rather than dropped. The history goes back to the provider with every request, and each refuses an empty
     * name there; this one fits every format's rule for names (letters, digits, {@code _} and {@code -}, a letter
     * first, at most 63 characters) and names no tool.
     */
    public static final String MISSING_NAME = "missing_tool_name";

    /**
     * The name a call goes back to the provider under when the model wrote a name no API takes in its history (gpt-oss
     * on vLLM or Ollama streams {@code repo_browser.open_file}; OpenAI then refuses every later request with "string
     * does not match pattern"). The conversation keeps the name as written, so the error result can quote it; only the
     * request writers use this one, like {@link #MISSING_NAME} it names no tool.
     */
    public static final String INVALID_NAME = "invalid_tool_name";

    /**
     * Tool names every API takes, in declarations and in the history: OpenAI's chat completions and Responses
     * ({@code ^[a-zA-Z0-9_-]{1,64}$}), Anthropic's tool names, Gemini's FunctionCall and FunctionResponse names
     * ("a-z, A-Z, 0-9, or underscores and dashes, with a maximum length of 64").
     */
    private static final java.util.regex.Pattern WIRE_NAME = java.util.regex.Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    /** Whether {@code name} is one every provider takes back in a request. */
    public static boolean isWireName(String name) {
        return WIRE_NAME.matcher(name).matches();
    }

    /** The name a call named {@code name} goes back to a provider under: itself, or {@link #INVALID_NAME}. */
    public static String wireName(String name) {
        return isWireName(name) ? name : INVALID_NAME;
    }

    /** A new unique id, for calls whose provider sent none (or one already taken). */
    public static String freshId() {
        return "call_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    /**
     * The arguments as a value that compares equal whatever their spacing and key order: parsed when they are JSON,
     * the text as it came when not. How the loop guard and the repeated-failure warning tell a repeat.
     */
    public Object comparableArguments() {
        try {
            com.fasterxml.jackson.databind.JsonNode parsed = dev.dockhand.core.Json.MAPPER.readTree(arguments);
            return parsed == null ? arguments : parsed;
        } catch (java.io.IOException notJson) {
            return arguments;
        }
    }

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        // A stream that split a character's two halves into two events has joined them again by now; what is still
        // half a character is made well-formed, as the messages are. A lone one escaped in the JSON is the request
        // writers' (ToolArguments).
        arguments = dev.dockhand.core.Utf16.wellFormed(Objects.requireNonNull(arguments, "arguments"));
    }
}
