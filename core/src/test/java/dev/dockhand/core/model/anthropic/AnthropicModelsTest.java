package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.testing.WireFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each Claude model gets the thinking it takes (Bedrock's and Anthropic's adaptive-thinking pages: Opus 4.7 refuses a
 * budget, 4.6 deprecates it, Sonnet 4.5 and older have no adaptive mode, Claude 3.5 has no thinking), and a thinking
 * block goes back only to the model that signed it.
 */
class AnthropicModelsTest {
    @Test
    void eachModelIsAskedToThinkTheWayItTakes() {
        Map<String, AnthropicModels.Thinking> expected = new TreeMap<>(Map.of(
                "claude-3-5-sonnet-20241022", AnthropicModels.Thinking.NONE,
                "claude-3-haiku-20240307", AnthropicModels.Thinking.NONE,
                "claude-3-7-sonnet-20250219", AnthropicModels.Thinking.BUDGET,
                "claude-sonnet-4-5-20250929", AnthropicModels.Thinking.BUDGET,
                "claude-haiku-4-5", AnthropicModels.Thinking.BUDGET,
                "claude-opus-4-1", AnthropicModels.Thinking.BUDGET,
                "claude-opus-4-6", AnthropicModels.Thinking.ADAPTIVE,
                "claude-sonnet-4-6", AnthropicModels.Thinking.ADAPTIVE,
                "claude-opus-4-7", AnthropicModels.Thinking.ADAPTIVE,
                "claude-sonnet-5", AnthropicModels.Thinking.ADAPTIVE));
        Map<String, AnthropicModels.Thinking> actual = new TreeMap<>();
        expected.keySet().forEach(model -> actual.put(model, AnthropicModels.thinking(model)));

        assertEquals(expected, actual);
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode write(String model, List<Message> messages) {
        var body = AnthropicRequestWriter.write(
                new ModelRequest(model, messages, List.of(), Optional.of(ReasoningEffort.MEDIUM)), 8192);
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(body));
        return body;
    }

    @Test
    void anEffortBecomesABudgetAdaptiveThinkingOrNothing() {
        List<Message> prompt = List.of(new Message.User("hi"));

        assertEquals(
                List.of(
                        Json.read("{\"type\":\"enabled\",\"budget_tokens\":10000}"),
                        Json.read("{\"type\":\"adaptive\"}"),
                        Json.MAPPER.missingNode()),
                List.of(
                        write("claude-sonnet-4-5", prompt).path("thinking"),
                        write("claude-opus-4-7", prompt).path("thinking"),
                        write("claude-3-5-haiku-latest", prompt).path("thinking")));
        assertEquals(
                Json.read("{\"effort\":\"medium\"}"),
                write("claude-opus-4-7", prompt).path("output_config"));
    }

    @Test
    void thinkingSignedByAnotherModelDoesNotGoBack() {
        ProviderState opus = new ProviderState(
                "anthropic",
                "{\"model\":\"claude-opus-4-1\",\"blocks\":[{\"type\":\"thinking\",\"thinking\":\"Look.\","
                        + "\"signature\":\"c2ln\"}]}");
        List<Message> history = List.of(
                new Message.User("list"),
                new Message.Assistant("", List.of(new ToolCall("toolu_1", "ls", "{}")), "Look.", opus),
                new Message.ToolResult("toolu_1", "ls", "a", false),
                new Message.Assistant("Done.", List.of(), "", ProviderState.NONE),
                new Message.User("again"));

        assertEquals(
                List.of("tool_use", "thinking"),
                List.of(
                        write("claude-sonnet-4-5", history)
                                .at("/messages/1/content/0/type")
                                .asText(),
                        write("claude-opus-4-1", history)
                                .at("/messages/1/content/0/type")
                                .asText()));
    }
}
