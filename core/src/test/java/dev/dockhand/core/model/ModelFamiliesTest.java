package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelFamiliesTest {
    @Test
    void namesTellTheProvidersOwnModelsAndOpenModelsAreNoOnes() {
        assertEquals(
                List.of(
                        Optional.of(Provider.ANTHROPIC),
                        Optional.of(Provider.GEMINI),
                        Optional.of(Provider.OPENAI),
                        Optional.of(Provider.OPENAI),
                        Optional.of(Provider.OPENAI),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty()),
                List.of(
                        ModelFamilies.owner("claude-haiku-4-5"),
                        ModelFamilies.owner("gemini-2.5-flash"),
                        ModelFamilies.owner("gpt-4.1-mini"),
                        ModelFamilies.owner("o3-mini"),
                        ModelFamilies.owner("o1"),
                        ModelFamilies.owner("gpt-oss:20b"),
                        ModelFamilies.owner("qwen3-coder"),
                        ModelFamilies.owner("omni-small")));
    }

    @Test
    void aModelOfAnotherProviderIsRefusedWithTheReasonAndItsOwnOrAnOpenOneIsNot() {
        String anthropic = Provider.ANTHROPIC.defaultBaseUrl();
        String openAi = Provider.OPENAI.defaultBaseUrl();
        assertEquals(
                List.of(
                        Optional.of("it is OpenAI's model and the session's provider is Anthropic"),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of("it is Anthropic's model and the session's provider is OpenAI"),
                        Optional.of("OpenAI serves it only through the Responses API, and the session's model speaks"
                                + " chat completions"),
                        Optional.empty(),
                        Optional.of("it is Gemini's model and the session's provider is Ollama"),
                        Optional.empty()),
                List.of(
                        ModelFamilies.mismatch(Provider.ANTHROPIC, anthropic, "gpt-4.1-mini"),
                        ModelFamilies.mismatch(Provider.ANTHROPIC, anthropic, "claude-haiku-4-5"),
                        ModelFamilies.mismatch(Provider.ANTHROPIC, anthropic, "deepseek-chat"),
                        ModelFamilies.mismatch(Provider.OPENAI, openAi + "/", "claude-haiku-4-5"),
                        ModelFamilies.mismatch(Provider.OPENAI, openAi, "gpt-5-codex"),
                        ModelFamilies.mismatch(Provider.OPENAI_RESPONSES, openAi, "gpt-5-codex"),
                        ModelFamilies.mismatch(Provider.OLLAMA, Provider.OLLAMA.defaultBaseUrl(), "gemini-2.5-pro"),
                        ModelFamilies.mismatch(Provider.OLLAMA, Provider.OLLAMA.defaultBaseUrl(), "gpt-oss:20b")));
    }

    @Test
    void anOpenAiCompatibleServerMayServeAnyName() {
        assertEquals(
                Optional.empty(),
                ModelFamilies.mismatch(Provider.OPENAI, "https://openrouter.example/api/v1", "claude-haiku-4-5"));
    }
}
