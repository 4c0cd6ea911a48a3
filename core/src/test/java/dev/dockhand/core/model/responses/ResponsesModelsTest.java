package dev.dockhand.core.model.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.model.Provider;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ResponsesModelsTest {
    private static final List<String> RESPONSES_ONLY = List.of(
            "gpt-5-codex",
            "gpt-5.1-codex",
            "gpt-5.1-codex-max",
            "gpt-5.1-codex-mini",
            "gpt-5.2-codex",
            "codex-mini-latest",
            "o1-pro",
            "o1-pro-2025-03-19",
            "o3-pro",
            "gpt-5-pro",
            "gpt-5-pro-2025-10-06",
            "GPT-5.2-Pro",
            "o3-deep-research",
            "o4-mini-deep-research",
            "computer-use-preview");

    private static final List<String> BOTH_APIS = List.of(
            "gpt-4o",
            "gpt-4.1",
            "gpt-5",
            "gpt-5-mini",
            "gpt-5.1",
            "o3",
            "o4-mini",
            "gpt-5-chat-latest",
            "openai/gpt-5-codex",
            "gpt-5-codex-turbo",
            "llama3.1:8b");

    @Test
    void knowsTheModelsOpenAiServesOnlyThroughResponses() {
        List<String> all =
                Stream.concat(RESPONSES_ONLY.stream(), BOTH_APIS.stream()).toList();

        assertEquals(
                RESPONSES_ONLY,
                all.stream().filter(ResponsesModels::responsesOnly).collect(Collectors.toList()));
    }

    @Test
    void openAiHandsResponsesOnlyModelsToTheResponsesProviderAndNoOtherProviderDoes() {
        assertEquals(
                List.of(
                        Provider.OPENAI_RESPONSES,
                        Provider.OPENAI,
                        Provider.OPENAI_RESPONSES,
                        Provider.ANTHROPIC,
                        Provider.OLLAMA),
                List.of(
                        Provider.OPENAI.forModel("gpt-5.1-codex-max"),
                        Provider.OPENAI.forModel("gpt-4.1"),
                        Provider.OPENAI_RESPONSES.forModel("gpt-4.1"),
                        Provider.ANTHROPIC.forModel("gpt-5-codex"),
                        Provider.OLLAMA.forModel("gpt-5-codex")));
    }

    @Test
    void tellsReasoningModelsFromModelsThatNeverReason() {
        List<String> models = List.of(
                "gpt-5",
                "gpt-5.1-codex-max",
                "o3",
                "codex-mini-latest",
                "gpt-4o",
                "gpt-5-chat-latest",
                "grok-4-fast-reasoning");

        assertEquals(
                List.of(
                        List.of(true, false),
                        List.of(true, false),
                        List.of(true, false),
                        List.of(true, false),
                        List.of(false, true),
                        List.of(false, true),
                        List.of(false, false)),
                models.stream()
                        .map(model -> List.of(ResponsesModels.reasons(model), ResponsesModels.neverReasons(model)))
                        .toList());
    }
}
