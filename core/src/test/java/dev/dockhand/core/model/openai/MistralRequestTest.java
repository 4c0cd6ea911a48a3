package dev.dockhand.core.model.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.testing.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Chat-completions requests for Mistral's models, whose validator is stricter than OpenAI's: each body is checked whole
 * and against the scripted model's Mistral rules, which the same history written as for OpenAI breaks.
 */
class MistralRequestTest {
    /** A turn that ended on its tool results (Ctrl-C, the loop guard, a limit, a failure), then the next prompt. */
    private static final List<Message> ENDED_ON_RESULTS = List.of(
            new Message.System("SYSTEM"),
            new Message.User("read a"),
            new Message.Assistant("Reading.", List.of(new ToolCall("c1", "read_file", "{\"path\":\"a\"}"))),
            new Message.ToolResult("c1", "read_file", "Cancelled.", true),
            new Message.User("go on"));

    private static JsonNode write(OpenAiRequestWriter writer, String model, List<Message> history) {
        return Json.read(new String(writer.write(new ModelRequest(model, history, List.of())), StandardCharsets.UTF_8));
    }

    private static JsonNode write(String model, List<Message> history) {
        return write(new OpenAiRequestWriter(), model, history);
    }

    @Test
    void theDialectIsMistralsByItsApisHostOrByTheModelsName() {
        Map<String, OpenAiDialect> dialects = new LinkedHashMap<>();
        for (String[] asked : new String[][] {
            {"api.mistral.ai", "ft:open-mistral-7b:587a6b29:20240514:7e773925"},
            {"codestral.mistral.ai", "codestral-latest"},
            {"localhost", "mistral-large-latest"},
            {"localhost", "devstral-medium-2507"},
            {"localhost", "Magistral-Small-2509"},
            {"localhost", "open-mixtral-8x22b"},
            {"openrouter.ai", "mistralai/devstral-small"},
            {"integrate.api.nvidia.com", "mistralai/mistral-small-4-119b-2603"},
            {"api.openai.com", "gpt-4o"},
            {"api.deepseek.com", "deepseek-chat"},
            {"localhost", "qwen3-coder"},
            {"mistral.ai.example.com", "gpt-4o"}
        }) {
            dialects.put(asked[0] + " " + asked[1], OpenAiDialect.of(asked[0], asked[1]));
        }

        Map<String, OpenAiDialect> expected = new LinkedHashMap<>();
        expected.put("api.mistral.ai ft:open-mistral-7b:587a6b29:20240514:7e773925", OpenAiDialect.MISTRAL_API);
        expected.put("codestral.mistral.ai codestral-latest", OpenAiDialect.MISTRAL_API);
        expected.put("localhost mistral-large-latest", OpenAiDialect.MISTRAL_API);
        expected.put("localhost devstral-medium-2507", OpenAiDialect.MISTRAL_API);
        expected.put("localhost Magistral-Small-2509", OpenAiDialect.MISTRAL_API);
        expected.put("localhost open-mixtral-8x22b", OpenAiDialect.MISTRAL_API);
        expected.put("openrouter.ai mistralai/devstral-small", OpenAiDialect.MISTRAL_MODEL);
        expected.put("integrate.api.nvidia.com mistralai/mistral-small-4-119b-2603", OpenAiDialect.MISTRAL_MODEL);
        expected.put("api.openai.com gpt-4o", OpenAiDialect.OPENAI);
        expected.put("api.deepseek.com deepseek-chat", OpenAiDialect.OPENAI);
        expected.put("localhost qwen3-coder", OpenAiDialect.OPENAI);
        expected.put("mistral.ai.example.com gpt-4o", OpenAiDialect.OPENAI);
        assertEquals(expected, dialects);
    }

    @Test
    void theNextPromptAfterATurnThatEndedOnItsResultsFollowsAShortAssistantMessageAndIdsAreNineCharacters() {
        JsonNode body = write("mistral-large-latest", ENDED_ON_RESULTS);

        assertEquals(
                Json.read(
                        """
                        {"model":"mistral-large-latest","stream":true,"messages":[
                         {"role":"system","content":"SYSTEM"},
                         {"role":"user","content":"read a"},
                         {"role":"assistant","content":"Reading.","tool_calls":[{"id":"IUK2kuQdX","type":"function",
                           "function":{"name":"read_file","arguments":"{\\"path\\":\\"a\\"}"}}]},
                         {"role":"tool","tool_call_id":"IUK2kuQdX","content":"Cancelled."},
                         {"role":"assistant","content":"I have read the tool results."},
                         {"role":"user","content":"go on"}]}
                        """),
                body);
        assertEquals(List.of(), WireFormat.OPENAI.problems(body));
    }

    /** The same history written as for OpenAI is what Mistral refuses, on each of its three rules. */
    @Test
    void theScriptedModelRefusesTheHistoryWrittenAsForOpenAi() {
        ObjectNode asForOpenAi = (ObjectNode) write("gpt-4o", ENDED_ON_RESULTS);
        asForOpenAi.put("model", "mistral-large-latest");

        assertEquals(
                List.of(
                        "Extra inputs are not permitted: body.stream_options (extra_forbidden).",
                        "Tool call id was c1 but must be a-z, A-Z, 0-9, with a length of 9.",
                        "Tool call id was c1 but must be a-z, A-Z, 0-9, with a length of 9.",
                        "Unexpected role 'user' after role 'tool' (messages[4])."),
                WireFormat.OPENAI.problems(asForOpenAi));
    }

    /**
     * The user message that carries a round's images comes right after its tool messages, so it follows a short
     * assistant message too; the images still come before the model's answer.
     */
    @Test
    void theImagesOfARoundFollowAShortAssistantMessageAfterItsToolMessages() {
        JsonNode body = write("pixtral-large-latest", ToolImages.conversation());

        JsonNode expected = ToolImages.request("openai", "tool_result_image_request");
        ObjectNode bridged = (ObjectNode) expected;
        bridged.put("model", "pixtral-large-latest");
        bridged.remove("stream_options");
        com.fasterxml.jackson.databind.node.ArrayNode messages =
                (com.fasterxml.jackson.databind.node.ArrayNode) bridged.get("messages");
        messages.insert(5, Json.read("{\"role\":\"assistant\",\"content\":\"I have read the tool results.\"}"));
        String replaced = Json.write(bridged)
                .replace("\"c1\"", "\"IUK2kuQdX\"")
                .replace("\"c2\"", "\"bg6DJnGAf\"")
                .replace("call c1:", "call IUK2kuQdX:");
        assertEquals(Json.read(replaced), body);
        assertEquals(List.of(), WireFormat.OPENAI.problems(body));
    }

    /** A reply that said nothing and called nothing is left out: Mistral takes no assistant message without either. */
    @Test
    void anAssistantMessageWithNeitherContentNorCallsIsLeftOut() {
        JsonNode body = write(
                "codestral-latest",
                List.of(new Message.User("hi"), new Message.Assistant("", List.of()), new Message.User("hello?")));

        assertEquals(
                Json.read(
                        """
                        [{"role":"user","content":"hi"},{"role":"user","content":"hello?"}]
                        """),
                body.get("messages"));
        assertEquals(List.of(), WireFormat.OPENAI.problems(body));
    }

    /** Behind another server a Mistral model keeps the order and ids, and the server gets stream_options for usage. */
    @Test
    void aMistralModelBehindAnotherServerKeepsMistralsOrderAndIdsAndIsAskedForUsage() {
        JsonNode body = write(new OpenAiRequestWriter("openrouter.ai"), "mistralai/devstral-small", ENDED_ON_RESULTS);

        assertEquals(
                List.of(
                        Json.read("{\"include_usage\":true}"),
                        Json.read("\"IUK2kuQdX\""),
                        Json.read("\"I have read the tool results.\"")),
                List.of(
                        body.get("stream_options"),
                        body.at("/messages/3/tool_call_id"),
                        body.at("/messages/4/content")));
        assertEquals(List.of(), WireFormat.OPENAI.problems(body));
    }

    /** Mistral's API by its host, whatever the model's name: no stream_options, which it refuses. */
    @Test
    void anyModelOnMistralsHostIsSentNoStreamOptions() {
        JsonNode body = write(
                new OpenAiRequestWriter("api.mistral.ai"),
                "ft:open-mistral-7b:587a6b29:20240514:7e773925",
                List.of(new Message.User("hi")));

        assertEquals(
                Json.read(
                        """
                        {"model":"ft:open-mistral-7b:587a6b29:20240514:7e773925","stream":true,
                         "messages":[{"role":"user","content":"hi"}]}
                        """),
                body);
    }
}
