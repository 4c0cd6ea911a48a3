package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.testing.ToolImages;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Which models take images, and what the others read instead. */
class ImageInputTest {
    private static Map<String, Boolean> decide(Predicate<String> rule, String... names) {
        Map<String, Boolean> decided = new TreeMap<>();
        for (String name : names) {
            decided.put(name, rule.test(name));
        }
        return decided;
    }

    @Test
    void knowsTheVisionModelsOfEachProviderAndDescribesToUnknownOpenAiCompatibleOnes() {
        assertEquals(
                new TreeMap<>(Map.of(
                        "gpt-4o-mini", true,
                        "gpt-4.1", true,
                        "gpt-5.1-codex", true,
                        "o3-mini", false,
                        "o1-mini", false,
                        "gpt-3.5-turbo", false,
                        "deepseek-chat", false,
                        "openai/gpt-4o", true,
                        "grok-4-fast-reasoning", true,
                        "my-local-model", false)),
                decide(
                        ImageInput::openAiChat,
                        "gpt-4o-mini",
                        "gpt-4.1",
                        "gpt-5.1-codex",
                        "o3-mini",
                        "o1-mini",
                        "gpt-3.5-turbo",
                        "deepseek-chat",
                        "openai/gpt-4o",
                        "grok-4-fast-reasoning",
                        "my-local-model"));
        assertEquals(
                new TreeMap<>(Map.of("claude-sonnet-4-5", true, "claude-2.1", false, "a-gateway-alias", true)),
                decide(ImageInput::anthropic, "claude-sonnet-4-5", "claude-2.1", "a-gateway-alias"));
        assertEquals(
                new TreeMap<>(Map.of(
                        "gemini-2.5-flash", true,
                        "models/gemini-3-pro-preview", true,
                        "gemini-2.5-flash-preview-tts", false,
                        "gemma-3-27b-it", true,
                        "gemma-3-1b-it", false)),
                decide(
                        ImageInput::gemini,
                        "gemini-2.5-flash",
                        "models/gemini-3-pro-preview",
                        "gemini-2.5-flash-preview-tts",
                        "gemma-3-27b-it",
                        "gemma-3-1b-it"));
        assertEquals(
                new TreeMap<>(Map.of(
                        "llava:13b", true,
                        "qwen2.5vl", true,
                        "gemma3:27b", true,
                        "gemma3:1b", false,
                        "llama3.2", false,
                        "llama3.2-vision:11b", true,
                        "gpt-oss:120b", false)),
                decide(
                        ImageInput::ollama,
                        "llava:13b",
                        "qwen2.5vl",
                        "gemma3:27b",
                        "gemma3:1b",
                        "llama3.2",
                        "llama3.2-vision:11b",
                        "gpt-oss:120b"));
        assertEquals(
                new TreeMap<>(Map.of("gpt-5", true, "grok-4", false, "o4-mini", true)),
                decide(ImageInput::responsesInOutput, "gpt-5", "grok-4", "o4-mini"));
    }

    @Test
    void anImageIsDescribedWhenTheModelTakesNoneTheApiRefusesItsTypeOrItIsTooLarge() {
        Image gif = Image.of("image/gif", "GIF89a".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Image huge = Image.of("image/png", new byte[(int) Image.MAX_BYTES + 1]);
        Message.ToolResult result =
                new Message.ToolResult("c1", "shot", "three", false, List.of(ToolImages.PNG, gif, huge));

        assertEquals(
                new ImageInput.Split(
                        List.of(ToolImages.PNG),
                        "three\n[image: image/gif, 6 bytes, not shown: Gemini does not take image/gif]\n"
                                + "[image: image/png, 3.8 MB, not shown: larger than the 3.75 MB an image may be]"),
                ImageBudget.plan(List.of(result), true, ImageBudget.GEMINI).split(result));
        assertEquals(
                new ImageInput.Split(
                        List.of(),
                        "three\n[image: image/png, 69 bytes, not shown: this model does not take images]\n"
                                + "[image: image/gif, 6 bytes, not shown: this model does not take images]\n"
                                + "[image: image/png, 3.8 MB, not shown: this model does not take images]"),
                ImageBudget.plan(List.of(result), false, ImageBudget.GEMINI).split(result));
    }

    @Test
    void anImageWhoseBytesAreNotItsTypeOrThatIsTooWideIsDescribedNotSent() {
        byte[] wide = java.util.Base64.getDecoder().decode(ToolImages.PNG_BASE64);
        wide[16] = 0;
        wide[17] = 0;
        wide[18] = 0x23;
        wide[19] = 0x28; // 9000 px wide
        Image tooWide = Image.of("image/png", wide);
        Image notPng = Image.of("image/png", "GIF89a\1\0\1\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Message.ToolResult result =
                new Message.ToolResult("c1", "shot", "three", false, List.of(ToolImages.PNG, tooWide, notPng));

        assertEquals(
                new ImageInput.Split(
                        List.of(ToolImages.PNG),
                        "three\n[image: image/png, 69 bytes, not shown: 9000x1 px, more than the 8000 px a side an"
                                + " image may be]\n[image: image/png, 10 bytes, not shown: its bytes are not a valid"
                                + " image/png]"),
                ImageBudget.plan(List.of(result), true, ImageBudget.ANTHROPIC).split(result));
    }

    @Test
    void base64FromAToolIsBroughtToTheFormEveryApiTakesAndGarbageIsRefused() {
        assertEquals(
                ToolImages.PNG,
                Image.fromBase64(
                        "IMAGE/PNG",
                        ToolImages.PNG_BASE64.substring(0, 40) + "\r\n" + ToolImages.PNG_BASE64.substring(40)));
        assertEquals(new Image("image/png", "aGk="), Image.fromBase64("image/png", "aGk"));
        assertThrows(IllegalArgumentException.class, () -> Image.fromBase64("image/png", "not base64!"));
        assertEquals(
                "[image: image/png, 12 KB, not shown: why]",
                Image.of("image/png", new byte[12 * 1024]).describe("why"));
    }
}
