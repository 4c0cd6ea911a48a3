package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The scripted Messages API refuses what the real one refuses about prompt-cache breakpoints, extended thinking and tools.
 * The base request is a tool loop with thinking on, in the shape Dockhand's writer produces: four breakpoints, the
 * thinking blocks opening the assistant turn, the budget below max_tokens, the tool the history calls declared.
 */
class AnthropicRulesTest {
    private static final String REQUEST =
            """
            {"model":"m","max_tokens":18000,"stream":true,"thinking":{"type":"enabled","budget_tokens":10000},
             "system":[{"type":"text","text":"SYSTEM","cache_control":{"type":"ephemeral"}}],
             "messages":[
              {"role":"user","content":[{"type":"text","text":"go","cache_control":{"type":"ephemeral"}}]},
              {"role":"assistant","content":[{"type":"thinking","thinking":"Read a.","signature":"c2ln"},
                {"type":"redacted_thinking","data":"ZGF0YQ=="},
                {"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a"}}]},
              {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"A",
                "cache_control":{"type":"ephemeral"}}]}],
             "tools":[{"name":"read_file","description":"d","input_schema":{"type":"object"},
               "cache_control":{"type":"ephemeral"}}]}
            """;

    private static List<String> problems(Consumer<ObjectNode> breaking) {
        ObjectNode body = (ObjectNode) Json.read(REQUEST);
        breaking.accept(body);
        return WireFormat.ANTHROPIC.problems(body);
    }

    private static ObjectNode at(ObjectNode body, String pointer) {
        return (ObjectNode) body.at(pointer);
    }

    private static ArrayNode content(ObjectNode body, int message) {
        return (ArrayNode) body.at("/messages/" + message + "/content");
    }

    private static ObjectNode mark() {
        return Json.object().put("type", "ephemeral");
    }

    @Test
    void acceptsFourBreakpointsAndSignedThinkingFirst() {
        assertEquals(List.of(), problems(body -> {}));
    }

    @Test
    void refusesAFifthBreakpoint() {
        assertEquals(
                List.of("A maximum of 4 blocks with cache_control may be provided. Found 5."),
                problems(body -> at(body, "/messages/1/content/2").set("cache_control", mark())));
    }

    @Test
    void refusesABreakpointOnAThinkingBlock() {
        assertEquals(
                List.of("messages.1.content.0.thinking.cache_control: thinking blocks cannot be marked with"
                        + " cache_control"),
                problems(body -> {
                    at(body, "/messages/0/content/0").remove("cache_control");
                    at(body, "/messages/1/content/0").set("cache_control", mark());
                }));
    }

    @Test
    void refusesThinkingOnWhenTheToolLoopTurnLacksItsThinking() {
        assertEquals(
                List.of("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`."
                        + " When `thinking` is enabled, a final `assistant` message must start with a thinking block"
                        + " (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."),
                problems(body -> {
                    content(body, 1).remove(0);
                    content(body, 1).remove(0);
                }));
        // A later round of a loop that opened with thinking needs none of its own.
        assertEquals(List.of(), problems(body -> {
            ArrayNode messages = (ArrayNode) body.get("messages");
            messages.addObject()
                    .put("role", "assistant")
                    .putArray("content")
                    .add(Json.read("{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"r\",\"input\":{}}"));
            messages.addObject()
                    .put("role", "user")
                    .putArray("content")
                    .add(Json.read("{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_2\",\"content\":\"B\"}"));
        }));
        // Without thinking, or once a new prompt ends the loop, the turn needs none.
        assertEquals(List.of(), problems(body -> {
            content(body, 1).remove(0);
            content(body, 1).remove(0);
            body.remove("thinking");
        }));
        assertEquals(List.of(), problems(body -> {
            content(body, 1).remove(0);
            content(body, 1).remove(0);
            ArrayNode messages = (ArrayNode) body.get("messages");
            messages.addObject()
                    .put("role", "assistant")
                    .putArray("content")
                    .addObject()
                    .put("type", "text")
                    .put("text", "Done.");
            messages.addObject()
                    .put("role", "user")
                    .putArray("content")
                    .addObject()
                    .put("type", "text")
                    .put("text", "more");
        }));
    }

    @Test
    void refusesABudgetNotBelowMaxTokensOrUnderTheMinimum() {
        assertEquals(
                List.of("`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation"
                        + " at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
                        + "#max-tokens-and-context-window-size"),
                problems(body -> body.put("max_tokens", 10_000)));
        assertEquals(
                List.of("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"),
                problems(body -> at(body, "/thinking").put("budget_tokens", 1000)));
    }

    @Test
    void refusesTemperatureAndTopKWithThinking() {
        assertEquals(
                List.of(
                        "`temperature` may only be set to 1 when thinking is enabled.",
                        "`top_k` cannot be set when thinking is enabled."),
                problems(body -> body.put("temperature", 0.2).put("top_k", 5)));
    }

    @Test
    void refusesThinkingThatDoesNotOpenItsTurnOrEndsItOrLacksItsSignature() {
        assertEquals(
                List.of(
                        "messages.1.content.0: If an assistant message contains any thinking blocks, the first"
                                + " block must be `thinking` or `redacted_thinking`. Found `text`.",
                        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`."
                                + " When `thinking` is enabled, a final `assistant` message must start with a"
                                + " thinking block (preceeding the lastmost set of `tool_use` and `tool_result`"
                                + " blocks)."),
                problems(body -> content(body, 1)
                        .insert(0, Json.object().put("type", "text").put("text", "Hi."))));
        assertEquals(
                List.of("messages.1: The final block in an assistant message cannot be `thinking`."), problems(body -> {
                    ArrayNode messages = (ArrayNode) body.get("messages");
                    messages.remove(2);
                    messages.remove(1);
                    ArrayNode turn =
                            messages.addObject().put("role", "assistant").putArray("content");
                    turn.addObject().put("type", "text").put("text", "Hi.");
                    turn.add(Json.read("{\"type\":\"redacted_thinking\",\"data\":\"ZGF0YQ==\"}"));
                    turn.insert(0, Json.read("{\"type\":\"thinking\",\"thinking\":\"x\",\"signature\":\"c2ln\"}"));
                    messages.addObject()
                            .put("role", "user")
                            .putArray("content")
                            .addObject()
                            .put("type", "text")
                            .put("text", "more");
                }));
        assertEquals(
                List.of("messages.1.content.0.thinking.signature: Field required"),
                problems(body -> at(body, "/messages/1/content/0").remove("signature")));
    }

    @Test
    void refusesThinkingInAFinalAssistantTurnWithThinkingOff() {
        assertEquals(
                List.of(
                        "This model does not support assistant message prefill. The conversation must end with a user"
                                + " message.",
                        "messages.1.content.0: When thinking is disabled, an `assistant` message in the final"
                                + " position cannot contain `thinking`. To use thinking blocks, enable `thinking` in"
                                + " your request."),
                problems(body -> {
                    body.remove("thinking");
                    ArrayNode messages = (ArrayNode) body.get("messages");
                    messages.remove(2);
                    content(body, 1).remove(2);
                    content(body, 1).addObject().put("type", "text").put("text", "Partial");
                }));
    }

    /** The last assistant message keeps no thinking with thinking off, also when results and a prompt follow it. */
    @Test
    void refusesThinkingInTheLastAssistantMessageWithThinkingOffThoughUserTurnsFollow() {
        assertEquals(
                List.of("messages.1.content.0: When thinking is disabled, an `assistant` message in the final"
                        + " position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your"
                        + " request."),
                problems(body -> {
                    body.remove("thinking");
                    content(body, 2).addObject().put("type", "text").put("text", "go on");
                }));
    }

    @Test
    void acceptsThinkingInAnEarlierAssistantMessageWithThinkingOff() {
        assertEquals(List.of(), problems(body -> {
            body.remove("thinking");
            ArrayNode messages = (ArrayNode) body.get("messages");
            messages.addObject()
                    .put("role", "assistant")
                    .putArray("content")
                    .addObject()
                    .put("type", "text")
                    .put("text", "Done.");
            messages.addObject().put("role", "user").put("content", "more");
        }));
    }

    @Test
    void refusesToolBlocksInARequestWithoutTools() {
        assertEquals(
                List.of("Requests which include `tool_use` or `tool_result` blocks must define tools."),
                problems(body -> body.remove("tools")));
    }

    @Test
    void refusesTwoToolsOfOneName() {
        assertEquals(List.of("tools: Tool names must be unique."), problems(body -> ((ArrayNode) body.get("tools"))
                .addObject()
                .put("name", "read_file")
                .put("description", "again")
                .putObject("input_schema")
                .put("type", "object")));
    }

    @Test
    void takesToolChoiceNoneWithThinkingAndRefusesAForcedTool() {
        assertEquals(List.of(), problems(body -> body.putObject("tool_choice").put("type", "none")));
        assertEquals(
                List.of("Thinking may not be enabled when tool_choice forces tool use."),
                problems(body ->
                        body.putObject("tool_choice").put("type", "tool").put("name", "read_file")));
        assertEquals(
                List.of("tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'"),
                problems(body -> body.putObject("tool_choice").put("type", "never")));
    }
}
