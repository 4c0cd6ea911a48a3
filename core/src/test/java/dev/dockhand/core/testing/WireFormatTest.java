package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The scripted model's protocol checker: a valid tool conversation in each wire format passes, and each way of
 * breaking it that the real API refuses is named. The requests are hand-written in the shapes Dockhand's writers
 * produce (and the providers' API references describe).
 */
class WireFormatTest {
    private static final String OPENAI =
            """
            {"model":"m","stream":true,"messages":[
             {"role":"system","content":"SYSTEM"},
             {"role":"user","content":"go"},
             {"role":"assistant","content":null,"tool_calls":[
               {"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"a\\"}"}},
               {"id":"c2","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"b\\"}"}}]},
             {"role":"tool","tool_call_id":"c1","content":"A"},
             {"role":"tool","tool_call_id":"c2","content":"B"},
             {"role":"assistant","content":"Done."},
             {"role":"user","content":"thanks"}],
             "tools":[{"type":"function","function":{"name":"read_file","description":"d",
               "parameters":{"type":"object"}}}]}
            """;

    private static final String ANTHROPIC =
            """
            {"model":"m","max_tokens":1024,"stream":true,"system":"SYSTEM","messages":[
             {"role":"user","content":[{"type":"text","text":"go"}]},
             {"role":"assistant","content":[{"type":"text","text":"Reading."},
               {"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a"}},
               {"type":"tool_use","id":"toolu_2","name":"read_file","input":{"path":"b"}}]},
             {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"A"},
               {"type":"tool_result","tool_use_id":"toolu_2","content":"B","is_error":true},
               {"type":"text","text":"and then?"}]},
             {"role":"assistant","content":[{"type":"text","text":"Done."}]},
             {"role":"user","content":[{"type":"text","text":"thanks"}]}],
             "tools":[{"name":"read_file","description":"d","input_schema":{"type":"object"}}]}
            """;

    private static final String GEMINI =
            """
            {"contents":[
             {"role":"user","parts":[{"text":"go"}]},
             {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"a"}}},
               {"functionCall":{"name":"list_directory","args":{}}}]},
             {"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"A"}}},
               {"functionResponse":{"name":"list_directory","response":{"error":"no"}}}]},
             {"role":"model","parts":[{"text":"Done."}]},
             {"role":"user","parts":[{"text":"thanks"}]}],
             "systemInstruction":{"parts":[{"text":"SYSTEM"}]},
             "tools":[{"functionDeclarations":[{"name":"read_file","description":"d",
               "parameters":{"type":"OBJECT"}}]}]}
            """;

    private static final String OLLAMA =
            """
            {"model":"m","stream":true,"messages":[
             {"role":"system","content":"SYSTEM"},
             {"role":"user","content":"go"},
             {"role":"assistant","content":"","tool_calls":[
               {"function":{"name":"read_file","arguments":{"path":"a"}}}]},
             {"role":"tool","tool_name":"read_file","content":"A"},
             {"role":"assistant","content":"Done."}],
             "tools":[{"type":"function","function":{"name":"read_file","description":"d",
               "parameters":{"type":"object"}}}]}
            """;

    /** The problems {@code format} finds in {@code request} after {@code breaking} it. */
    private static List<String> problems(WireFormat format, String request, Consumer<ObjectNode> breaking) {
        ObjectNode body = (ObjectNode) Json.read(request);
        breaking.accept(body);
        return format.problems(body);
    }

    private static ObjectNode at(ObjectNode body, String pointer) {
        return (ObjectNode) body.at(pointer);
    }

    private static ArrayNode array(ObjectNode body, String pointer) {
        return (ArrayNode) body.at(pointer);
    }

    @Test
    void knowsEachFormatByItsPath() {
        assertEquals(Optional.of(WireFormat.OPENAI), WireFormat.ofPath("/v1/chat/completions"));
        assertEquals(Optional.of(WireFormat.ANTHROPIC), WireFormat.ofPath("/v1/messages"));
        assertEquals(
                Optional.of(WireFormat.GEMINI),
                WireFormat.ofPath("/v1beta/models/test-model:streamGenerateContent?alt=sse"));
        assertEquals(Optional.of(WireFormat.OLLAMA), WireFormat.ofPath("/api/chat"));
        assertEquals(Optional.empty(), WireFormat.ofPath("/v1/completions"));
    }

    @Test
    void acceptsAValidToolConversationInEachFormat() {
        assertEquals(List.of(), problems(WireFormat.OPENAI, OPENAI, body -> {}));
        assertEquals(List.of(), problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {}));
        assertEquals(List.of(), problems(WireFormat.GEMINI, GEMINI, body -> {}));
        assertEquals(List.of(), problems(WireFormat.OLLAMA, OLLAMA, body -> {}));
    }

    @Test
    void openAiRefusesResultsOutOfOrder() {
        assertEquals(
                List.of("An assistant message with 'tool_calls' must be followed by one tool message per call, in"
                        + " order: messages[2] made [c1, c2] but was answered by [c2, c1]."),
                problems(WireFormat.OPENAI, OPENAI, body -> {
                    at(body, "/messages/3").put("tool_call_id", "c2");
                    at(body, "/messages/4").put("tool_call_id", "c1");
                }));
    }

    @Test
    void openAiRefusesACallLeftUnanswered() {
        assertEquals(
                List.of("An assistant message with 'tool_calls' must be followed by one tool message per call, in"
                        + " order: messages[2] made [c1, c2] but was answered by [c1]."),
                problems(WireFormat.OPENAI, OPENAI, body -> array(body, "/messages")
                        .remove(4)));
    }

    @Test
    void openAiRefusesAToolMessageThatAnswersNothing() {
        assertEquals(
                List.of("Invalid 'messages[6]': a message with role 'tool' must answer a preceding message with"
                        + " 'tool_calls'."),
                problems(WireFormat.OPENAI, OPENAI, body -> at(body, "/messages/6")
                        .put("role", "tool")
                        .put("tool_call_id", "c1")));
    }

    @Test
    void openAiRefusesAnEmptyOrInvalidFunctionName() {
        assertEquals(
                List.of("Invalid 'messages[2].tool_calls[0].function.name': empty string."),
                problems(WireFormat.OPENAI, OPENAI, body -> at(body, "/messages/2/tool_calls/0/function")
                        .put("name", "")));
        assertEquals(
                List.of("Invalid 'messages[2].tool_calls[1].function.name': \"multi_tool_use.parallel\" does not"
                        + " match '^[a-zA-Z0-9_-]{1,64}$'."),
                problems(WireFormat.OPENAI, OPENAI, body -> at(body, "/messages/2/tool_calls/1/function")
                        .put("name", "multi_tool_use.parallel")));
    }

    @Test
    void openAiRefusesAToolCallIdLongerThanFortyCharacters() {
        String id = "gen-1767225900-" + "a".repeat(26);
        assertEquals(
                List.of("Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum"
                        + " length 40, but got a string with length 41 instead."),
                problems(WireFormat.OPENAI, OPENAI, body -> {
                    at(body, "/messages/2/tool_calls/0").put("id", id);
                    at(body, "/messages/3").put("tool_call_id", id);
                }));
    }

    @Test
    void openAiRefusesEmptyArgumentsAndAMissingId() {
        assertEquals(
                List.of(
                        "Invalid 'messages[2].tool_calls[0].id': empty string.",
                        "Invalid 'messages[2].tool_calls[0].function.arguments': expected a non-empty string.",
                        "An assistant message with 'tool_calls' must be followed by one tool message per call, in"
                                + " order: messages[2] made [, c2] but was answered by [c1, c2]."),
                problems(WireFormat.OPENAI, OPENAI, body -> {
                    at(body, "/messages/2/tool_calls/0").remove("id");
                    at(body, "/messages/2/tool_calls/0/function").put("arguments", "");
                }));
    }

    @Test
    void xaiRefusesAnEffortToAGrokModelOtherThanGrok3Mini() {
        assertEquals(
                List.of(List.of("Model grok-4-fast-reasoning does not support parameter reasoningEffort."), List.of()),
                List.of(
                        problems(WireFormat.OPENAI, OPENAI, body -> body.put("model", "grok-4-fast-reasoning")
                                .put("reasoning_effort", "low")),
                        problems(WireFormat.OPENAI, OPENAI, body -> body.put("model", "grok-3-mini")
                                .put("reasoning_effort", "low"))));
    }

    @Test
    void deepSeekRefusesAToolCallMessageWithoutItsReasoningContent() {
        assertEquals(
                List.of("Missing `reasoning_content` field in the assistant message at message index 2. The"
                        + " reasoning_content in the thinking mode must be passed back to the API."),
                problems(WireFormat.OPENAI, OPENAI, body -> body.put("model", "deepseek-reasoner")));
        assertEquals(
                List.of("Invalid 'messages[2].reasoning_content': expected a string."),
                problems(WireFormat.OPENAI, OPENAI, body -> {
                    body.put("model", "deepseek-v4-pro");
                    at(body, "/messages/2").putObject("reasoning_content");
                }));
    }

    @Test
    void deepSeekAcceptsAnEmptyReasoningContentAndHoldsNoOtherServerToIt() {
        assertEquals(List.of(), problems(WireFormat.OPENAI, OPENAI, body -> {
            body.put("model", "deepseek-reasoner");
            at(body, "/messages/2").put("reasoning_content", "");
        }));
        assertEquals(List.of(), problems(WireFormat.OPENAI, OPENAI, body -> body.put("model", "deepseek/deepseek-r1")));
    }

    @Test
    void anthropicRefusesTwoUserTurnsInARow() {
        assertEquals(
                List.of("messages.1: user and assistant turns must alternate; found two user turns"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {
                    array(body, "/messages").remove(4);
                    array(body, "/messages").remove(1);
                    array(body, "/messages").remove(1);
                    at(body, "/messages/1").put("role", "user");
                }));
    }

    @Test
    void anthropicRefusesTextBeforeTheToolResults() {
        assertEquals(
                List.of(
                        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1."
                                + " Each `tool_result` block must answer a `tool_use` block of the previous message,"
                                + " and come before any other block.",
                        "messages.2.content.2: unexpected `tool_use_id` found in `tool_result` blocks: toolu_2."
                                + " Each `tool_result` block must answer a `tool_use` block of the previous message,"
                                + " and come before any other block."),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> array(body, "/messages/2/content")
                        .insert(0, Json.object().put("type", "text").put("text", "first"))));
    }

    @Test
    void anthropicRefusesResultsOutOfOrderOrMissing() {
        assertEquals(
                List.of("messages.2: `tool_use` ids were found without `tool_result` blocks immediately after, in"
                        + " order: expected [toolu_1, toolu_2], found [toolu_2, toolu_1]"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {
                    at(body, "/messages/2/content/0").put("tool_use_id", "toolu_2");
                    at(body, "/messages/2/content/1").put("tool_use_id", "toolu_1");
                }));
        assertEquals(
                List.of("messages.2: `tool_use` ids were found without `tool_result` blocks immediately after, in"
                        + " order: expected [toolu_1, toolu_2], found [toolu_1]"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> array(body, "/messages/2/content")
                        .remove(1)));
    }

    @Test
    void anthropicRefusesAToolUseLeftUnansweredAtTheEnd() {
        assertEquals(
                List.of(
                        "This model does not support assistant message prefill. The conversation must end with a user"
                                + " message.",
                        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after:"
                                + " [toolu_1, toolu_2]"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {
                    array(body, "/messages").remove(4);
                    array(body, "/messages").remove(3);
                    array(body, "/messages").remove(2);
                }));
    }

    @Test
    void anthropicRefusesAnUnnamedToolUseAndInputThatIsNotAnObject() {
        assertEquals(
                List.of(
                        "messages.1.content.1.tool_use.name: String should have at least 1 character",
                        "messages.1.content.2.tool_use.input: Input should be a valid dictionary"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {
                    at(body, "/messages/1/content/1").put("name", "");
                    at(body, "/messages/1/content/2").put("input", "{\"path\":");
                }));
    }

    @Test
    void anthropicRefusesAnIdOutsideItsPatternAndAnIdAnEarlierTurnUsed() {
        assertEquals(
                List.of("messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {
                    at(body, "/messages/1/content/1").put("id", "functions.read_file:0");
                    at(body, "/messages/2/content/0").put("tool_use_id", "functions.read_file:0");
                }));
        assertEquals(
                List.of("messages.3.content.0: `tool_use` ids must be unique"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> {
                    ArrayNode messages = array(body, "/messages");
                    messages.remove(4);
                    messages.remove(3);
                    messages.addObject()
                            .put("role", "assistant")
                            .putArray("content")
                            .add(Json.read("{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"read_file\","
                                    + "\"input\":{}}"));
                    messages.addObject()
                            .put("role", "user")
                            .putArray("content")
                            .add(Json.read("{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"C\"}"));
                }));
    }

    @Test
    void anthropicRefusesAToolUseNameOutsideTheToolNamePattern() {
        assertEquals(
                List.of("messages.1.content.1.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> at(body, "/messages/1/content/1")
                        .put("name", "repo_browser.open_file")));
    }

    @Test
    void anthropicRefusesARequestThatEndsWithTheAssistant() {
        assertEquals(
                List.of("This model does not support assistant message prefill. The conversation must end with a user"
                        + " message."),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> array(body, "/messages")
                        .remove(4)));
    }

    @Test
    void geminiRefusesARequestThatEndsWithTheModelAndAResponseNameOutsideThePattern() {
        assertEquals(
                List.of("Please ensure that multiturn requests ends with a user role or a function response."),
                problems(WireFormat.GEMINI, GEMINI, body -> array(body, "/contents")
                        .remove(4)));
        assertEquals(
                List.of(
                        "* GenerateContentRequest.contents[1].parts[0].function_call.name: Invalid function name"
                                + " \"repo_browser.open_file\".",
                        "* GenerateContentRequest.contents[2].parts[0].function_response.name: Invalid function name"
                                + " \"repo_browser.open_file\"."),
                problems(WireFormat.GEMINI, GEMINI, body -> {
                    at(body, "/contents/1/parts/0/functionCall").put("name", "repo_browser.open_file");
                    at(body, "/contents/2/parts/0/functionResponse").put("name", "repo_browser.open_file");
                }));
    }

    @Test
    void anthropicRefusesEmptyAndWhitespaceOnlyText() {
        assertEquals(
                List.of("messages.3: text content blocks must be non-empty"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> at(body, "/messages/3/content/0")
                        .put("text", "")));
        assertEquals(
                List.of("messages.3: text content blocks must contain non-whitespace text"),
                problems(WireFormat.ANTHROPIC, ANTHROPIC, body -> at(body, "/messages/3/content/0")
                        .put("text", " \n")));
    }

    @Test
    void geminiRefusesAMissingFunctionResponse() {
        assertEquals(
                List.of("* GenerateContentRequest.contents[2]: Please ensure that the number of function response"
                        + " parts is equal to the number of function call parts of the function call turn."),
                problems(WireFormat.GEMINI, GEMINI, body -> array(body, "/contents/2/parts")
                        .remove(1)));
    }

    @Test
    void geminiRefusesResponsesWhoseNamesDoNotMatchTheCalls() {
        assertEquals(
                List.of("* GenerateContentRequest.contents[2]: the function responses [list_directory, read_file] do"
                        + " not answer the calls [read_file, list_directory] in order."),
                problems(WireFormat.GEMINI, GEMINI, body -> {
                    at(body, "/contents/2/parts/0/functionResponse").put("name", "list_directory");
                    at(body, "/contents/2/parts/1/functionResponse").put("name", "read_file");
                }));
    }

    @Test
    void geminiRefusesEmptyNamesEmptyTextAndEmptyParts() {
        assertEquals(
                List.of(
                        "* GenerateContentRequest.contents[1].parts[0].function_call.name: Invalid function name"
                                + " \"\".",
                        "* GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be"
                                + " empty."),
                problems(WireFormat.GEMINI, GEMINI, body -> {
                    at(body, "/contents/1/parts/0/functionCall").put("name", "");
                    at(body, "/contents/2/parts/0/functionResponse").put("name", "");
                }));
        assertEquals(
                List.of("* GenerateContentRequest.contents[3].parts[0].data: required oneof field 'data' must have"
                        + " one initialized field"),
                problems(WireFormat.GEMINI, GEMINI, body -> at(body, "/contents/3/parts/0")
                        .put("text", "")));
        assertEquals(
                List.of("* GenerateContentRequest.contents[0].parts: contents.parts must not be empty."),
                problems(WireFormat.GEMINI, GEMINI, body -> array(body, "/contents/0/parts")
                        .removeAll()));
    }

    @Test
    void geminiRefusesAFunctionResponseThatAnswersNoCall() {
        assertEquals(
                List.of(
                        "* GenerateContentRequest.contents[1]: user and model turns must alternate; found two user"
                                + " turns",
                        "* GenerateContentRequest.contents[1]: Please ensure that function response turn comes"
                                + " immediately after a function call turn."),
                problems(WireFormat.GEMINI, GEMINI, body -> array(body, "/contents")
                        .remove(1)));
    }

    private static final String GEMINI_3_PATH = "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse";

    /**
     * A Gemini 3 turn of two steps (a parallel pair, then one call) after an earlier turn whose call is unsigned, as
     * the thought-signatures guide's examples lay them out: only the first call of each step carries a signature.
     */
    private static final String GEMINI_3 =
            """
            {"contents":[
             {"role":"user","parts":[{"text":"earlier"}]},
             {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"old"}}}]},
             {"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"O"}}}]},
             {"role":"model","parts":[{"text":"Old."}]},
             {"role":"user","parts":[{"text":"go"}]},
             {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"a"}},"thoughtSignature":"U0E="},
               {"functionCall":{"name":"read_file","args":{"path":"b"}}}]},
             {"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"A"}}},
               {"functionResponse":{"name":"read_file","response":{"output":"B"}}}]},
             {"role":"model","parts":[{"functionCall":{"name":"list_directory","args":{}},"thoughtSignature":"U0I="}]},
             {"role":"user","parts":[{"functionResponse":{"name":"list_directory","response":{"output":"C"}}}]}]}
            """;

    private static List<String> problems(String path, String request, Consumer<ObjectNode> breaking) {
        ObjectNode body = (ObjectNode) Json.read(request);
        breaking.accept(body);
        return WireFormat.GEMINI.problems(path, body);
    }

    @Test
    void geminiThreeAcceptsSignedStepsAndUnsignedCallsOfEarlierTurnsAndLaterParallelCalls() {
        assertEquals(List.of(), problems(GEMINI_3_PATH, GEMINI_3, body -> {}));
    }

    @Test
    void geminiThreeRefusesAnUnsignedFirstCallInAnyStepOfTheCurrentTurn() {
        assertEquals(
                List.of("Unable to submit request because function call `read_file` in the 5. content block is missing"
                        + " a `thought_signature`."),
                problems(GEMINI_3_PATH, GEMINI_3, body -> at(body, "/contents/5/parts/0")
                        .remove("thoughtSignature")));
        assertEquals(
                List.of("Unable to submit request because function call `list_directory` in the 7. content block is"
                        + " missing a `thought_signature`."),
                problems(GEMINI_3_PATH, GEMINI_3, body -> at(body, "/contents/7/parts/0")
                        .remove("thoughtSignature")));
    }

    @Test
    void geminiThreeAcceptsThePlaceholderSignatureAndGeminiTwoPointFiveNeedsNone() {
        assertEquals(List.of(), problems(GEMINI_3_PATH, GEMINI_3, body -> at(body, "/contents/5/parts/0")
                .put("thoughtSignature", "skip_thought_signature_validator")));
        assertEquals(
                List.of(), problems("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", GEMINI_3, body -> at(
                                body, "/contents/5/parts/0")
                        .remove("thoughtSignature")));
    }

    @Test
    void geminiRefusesThinkingSettingsTheModelDoesNotTake() {
        String prefix = "* GenerateContentRequest.generation_config.thinking_config";
        assertEquals(
                List.of(prefix + ": thinking_level and thinking_budget cannot be used in one request."),
                problems(GEMINI_3_PATH, GEMINI_3, body -> body.putObject("generationConfig")
                        .putObject("thinkingConfig")
                        .put("thinkingLevel", "low")
                        .put("thinkingBudget", 1024)));
        assertEquals(
                List.of(prefix + ".thinking_level: this model does not support thinking_level; use thinking_budget."),
                problems(
                        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", GEMINI, body -> body.putObject(
                                        "generationConfig")
                                .putObject("thinkingConfig")
                                .put("thinkingLevel", "high")));
        assertEquals(
                List.of(prefix + ".thinking_level: gemini-3-pro-preview supports only low and high."),
                problems(GEMINI_3_PATH, GEMINI_3, body -> body.putObject("generationConfig")
                        .putObject("thinkingConfig")
                        .put("thinkingLevel", "medium")));
    }

    @Test
    void ollamaRefusesArgumentsThatAreNotAnObjectAndAnEmptyName() {
        assertEquals(
                List.of(
                        "messages[2].tool_calls[0].function.name: must not be empty",
                        "messages[2].tool_calls[0].function.arguments: cannot unmarshal \"{\\\"path\\\":\\\"a\\\"}\""
                                + " into an object",
                        "messages[2]: the calls [] must be answered by one tool message each, in order, right after"
                                + " them; found [read_file]"),
                problems(WireFormat.OLLAMA, OLLAMA, body -> at(body, "/messages/2/tool_calls/0/function")
                        .put("name", "")
                        .put("arguments", "{\"path\":\"a\"}")));
    }

    @Test
    void ollamaRefusesAMissingOrStrayToolResult() {
        assertEquals(
                List.of("messages[2]: the calls [read_file] must be answered by one tool message each, in order,"
                        + " right after them; found []"),
                problems(WireFormat.OLLAMA, OLLAMA, body -> array(body, "/messages")
                        .remove(3)));
        assertEquals(
                List.of("messages[1]: a tool message must follow the assistant message whose call it answers"),
                problems(WireFormat.OLLAMA, OLLAMA, body -> at(body, "/messages/1")
                        .put("role", "tool")
                        .put("tool_name", "read_file")));
    }

    @Test
    void theRejectionHasTheShapeOfEachApisError() {
        List<String> problems = List.of("first", "second");
        assertEquals(
                Json.read("{\"error\":{\"message\":\"first\\nsecond\",\"type\":\"invalid_request_error\","
                        + "\"param\":null,\"code\":null}}"),
                body(WireFormat.OPENAI, problems));
        assertEquals(
                Json.read("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                        + "\"message\":\"first\\nsecond\"},\"request_id\":\"req_scripted_model\"}"),
                body(WireFormat.ANTHROPIC, problems));
        assertEquals(
                Json.read("{\"error\":{\"code\":400,\"message\":\"first\\nsecond\",\"status\":\"INVALID_ARGUMENT\"}}"),
                body(WireFormat.GEMINI, problems));
        assertEquals(Json.read("{\"error\":\"first\\nsecond\"}"), body(WireFormat.OLLAMA, problems));
    }

    private static JsonNode body(WireFormat format, List<String> problems) {
        var response = format.rejection(problems);
        assertEquals("HTTP/1.1 400 Client Error", response.getStatus());
        return Json.read(response.getBody().readUtf8());
    }
}
