package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The scripted model's checker for the Responses API: a valid stateless tool conversation passes, and each way of
 * breaking it that the real API refuses is named. The request is hand-written in the shape ResponsesRequestWriter
 * produces.
 */
class ResponsesRulesTest {
    private static final String VALID =
            """
            {"model":"gpt-5","instructions":"SYSTEM","input":[
             {"type":"message","role":"user","content":"go"},
             {"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"enc-1"},
             {"type":"message","role":"assistant","phase":"commentary",
              "content":[{"type":"output_text","text":"Reading."}]},
             {"type":"function_call","call_id":"c1","name":"read_file","arguments":"{\\"path\\":\\"a\\"}"},
             {"type":"function_call","call_id":"c2","name":"read_file","arguments":"{\\"path\\":\\"b\\"}"},
             {"type":"function_call_output","call_id":"c1","output":"A"},
             {"type":"function_call_output","call_id":"c2","output":"B"},
             {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]},
             {"type":"message","role":"user","content":"thanks"}],
             "tools":[{"type":"function","name":"read_file","description":"d",
               "parameters":{"type":"object","properties":{"path":{"type":"string"}}},"strict":false}],
             "parallel_tool_calls":true,"stream":true,"store":false,"include":["reasoning.encrypted_content"],
             "reasoning":{"summary":"auto"}}
            """;

    private static List<String> problems(Consumer<ObjectNode> breaking) {
        ObjectNode body = (ObjectNode) Json.read(VALID);
        breaking.accept(body);
        return WireFormat.OPENAI_RESPONSES.problems(body);
    }

    private static ObjectNode item(ObjectNode body, int index) {
        return (ObjectNode) body.get("input").get(index);
    }

    private static ArrayNode input(ObjectNode body) {
        return (ArrayNode) body.get("input");
    }

    @Test
    void knowsTheFormatByItsPath() {
        assertEquals(Optional.of(WireFormat.OPENAI_RESPONSES), WireFormat.ofPath("/v1/responses"));
    }

    @Test
    void acceptsAValidStatelessToolConversation() {
        assertEquals(List.of(), problems(body -> {}));
    }

    @Test
    void refusesAnEffortToAGrokModelThatDoesNotTakeOneAndTakesItFromGrok3Mini() {
        assertEquals(
                List.of(List.of("Model grok-4-fast-reasoning does not support parameter reasoningEffort."), List.of()),
                List.of(
                        problems(body -> body.put("model", "grok-4-fast-reasoning")
                                .putObject("reasoning")
                                .put("effort", "low")),
                        problems(body -> body.put("model", "grok-3-mini")
                                .putObject("reasoning")
                                .put("effort", "low"))));
    }

    @Test
    void refusesACallIdLongerThanSixtyFourCharacters() {
        String id = "call_" + "x".repeat(60);
        assertEquals(
                List.of(
                        "Invalid 'input[3].call_id': string too long. Expected a string with maximum length 64, but"
                                + " got a string with length 65 instead.",
                        "Invalid 'input[5].call_id': string too long. Expected a string with maximum length 64, but"
                                + " got a string with length 65 instead."),
                problems(body -> {
                    item(body, 3).put("call_id", id);
                    item(body, 5).put("call_id", id);
                }));
    }

    @Test
    void refusesACallLeftUnanswered() {
        assertEquals(List.of("No tool output found for function call c2."), problems(body -> input(body)
                .remove(6)));
    }

    @Test
    void refusesAnOutputThatAnswersNoCall() {
        assertEquals(
                List.of(
                        "No tool call found for function call output with call_id c9.",
                        "No tool output found for function call c1."),
                problems(body -> item(body, 5).put("call_id", "c9")));
    }

    @Test
    void refusesACallAnsweredTwice() {
        assertEquals(
                List.of(
                        "Invalid 'input[6]': call_id c1 is answered twice.",
                        "No tool output found for function call c2."),
                problems(body -> item(body, 6).put("call_id", "c1")));
    }

    @Test
    void refusesAReasoningItemWithoutItsEncryptedContentWhenNothingIsStored() {
        assertEquals(
                List.of("Item with id 'rs_1' not found. Items are not persisted when `store` is set to false."),
                problems(body -> item(body, 1).remove("encrypted_content")));
    }

    @Test
    void acceptsAReasoningItemByIdWhenTheServerStoresIt() {
        assertEquals(List.of(), problems(body -> {
            body.put("store", true);
            item(body, 1).remove("encrypted_content");
        }));
    }

    @Test
    void refusesAnItemReferenceWhenNothingIsStored() {
        assertEquals(
                List.of("Item with id 'msg_1' not found. Items are not persisted when `store` is set to false."),
                problems(body -> input(body)
                        .set(7, Json.object().put("type", "item_reference").put("id", "msg_1"))));
    }

    @Test
    void refusesAReasoningItemThatNothingFollows() {
        assertEquals(
                List.of("Item 'rs_1' of type 'reasoning' was provided without its required following item."),
                problems(body -> {
                    input(body).remove(2);
                    input(body)
                            .insert(
                                    2,
                                    Json.object()
                                            .put("type", "message")
                                            .put("role", "user")
                                            .put("content", "x"));
                }));
    }

    @Test
    void refusesArgumentsSentAsAnObject() {
        assertEquals(
                List.of("Invalid type for 'input[3].arguments': expected a string, but got {\"path\":\"a\"} instead."),
                problems(body -> item(body, 3).set("arguments", Json.object().put("path", "a"))));
    }

    @Test
    void refusesUserPartsInAnAssistantMessageAndAPhaseOnAUserMessage() {
        assertEquals(
                List.of(
                        "Invalid value for 'input[2].content[0].type': 'input_text' in a assistant message.",
                        "Invalid value for 'input[8].phase': \"commentary\" on a user message."),
                problems(body -> {
                    ((ObjectNode) item(body, 2).get("content").get(0)).put("type", "input_text");
                    item(body, 8).put("phase", "commentary");
                }));
    }

    @Test
    void refusesAStrictToolWhoseSchemaHasOptionalProperties() {
        assertEquals(
                List.of("Invalid schema for function 'read_file': In context=(), 'required' is required to be"
                        + " supplied and to be an array including every key in properties, and"
                        + " 'additionalProperties' must be false."),
                problems(body -> ((ObjectNode) body.get("tools").get(0)).remove("strict")));
    }

    @Test
    void refusesReasoningForAModelThatDoesNotReason() {
        assertEquals(
                List.of("Unsupported parameter: 'reasoning.effort' is not supported with this model."),
                problems(body -> body.put("model", "gpt-4o")));
    }
}
