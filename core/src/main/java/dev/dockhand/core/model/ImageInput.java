package dev.dockhand.core.model;

import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.ImageHeader;
import dev.dockhand.core.conversation.Message;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which models take images, and which images an API will not take whatever the request ({@link ImageBudget} decides,
 * of the others, which a request carries).
 * A model that does not take images answers an image with a 400 (DeepSeek: "unknown variant `image_url`"; Ollama:
 * "this model is missing data required for image input"), which would break every later request of the session, while
 * a description costs only the picture: so a name this does not know gets descriptions. The lists follow the
 * providers' model pages as of 2026; Anthropic's and Gemini's own names all take images but for the few listed.
 */
public final class ImageInput {
    /** The types Anthropic's image blocks take ({@code source.media_type}). */
    public static final Set<String> ANTHROPIC_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    /** The types OpenAI's vision input takes (PNG, JPEG, WEBP, non-animated GIF). */
    public static final Set<String> OPENAI_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    /** The image types Gemini takes; GIF is not one of them. */
    public static final Set<String> GEMINI_TYPES =
            Set.of("image/jpeg", "image/png", "image/webp", "image/heic", "image/heif");
    /** What Ollama's image decoding reads for its vision models. */
    public static final Set<String> OLLAMA_TYPES = Set.of("image/jpeg", "image/png", "image/webp");

    /** Why an image is described when the model takes none; the words the model and the docs show. */
    public static final String NO_IMAGES = "this model does not take images";

    private static final Pattern CLAUDE_WITHOUT_IMAGES = Pattern.compile("claude-(instant|2).*");

    /** OpenAI's vision models, and others' served through OpenAI-compatible servers and gateways. */
    private static final Pattern OPENAI_VISION = Pattern.compile("(gpt-4o.*|gpt-4\\.1.*|gpt-4\\.5.*|gpt-4-turbo.*"
            + "|gpt-4-vision.*|gpt-5.*|chatgpt-4o.*|o1|o1-(pro|20).*|o3|o3-(pro|20|deep).*|o4-mini.*|codex-mini.*"
            + "|computer-use.*|grok-4.*|grok-.*vision.*|gemini-.*|claude-(3|sonnet|opus|haiku).*|pixtral.*"
            + "|mistral-medium.*|mistral-small-latest|llama-4.*|.*-vl(-.*)?|.*vision.*|llava.*)");

    /** The Responses models that take an array of content, images included, as a function call's output. */
    private static final Pattern RESPONSES_IMAGE_OUTPUT = Pattern.compile(
            "(gpt-4o.*|gpt-4\\.1.*|gpt-5.*|o1|o1-(pro|20).*|o3|o3-(pro|20|deep).*|o4-mini.*|codex-mini.*"
                    + "|computer-use.*)");

    /** Ollama's vision models (its "vision" tag), by name without the tag; gemma3 but its text-only 270m and 1b. */
    private static final Pattern OLLAMA_VISION = Pattern.compile("(llava.*|bakllava|llama3\\.2-vision|llama4"
            + "|gemma3|qwen2\\.5vl|qwen2\\.5-vl|qwen3-vl|minicpm-v|moondream|granite3\\.2-vision"
            + "|mistral-small3\\.[12]|.*-vision)");

    private static final Pattern GEMINI_WITHOUT_IMAGES = Pattern.compile(".*-(tts|embedding|embedding-.*)");

    private ImageInput() {}

    /** Claude 3 and later take images; Claude 2 and Instant do not. A name Dockhand does not know is a newer one. */
    public static boolean anthropic(String model) {
        return !CLAUDE_WITHOUT_IMAGES.matcher(name(model)).matches();
    }

    /** Every Gemini model takes images but the speech and embedding ones; of Gemma, Gemma 3 but its 1B. */
    public static boolean gemini(String model) {
        String name = name(model);
        if (name.startsWith("gemini-")) {
            return !GEMINI_WITHOUT_IMAGES.matcher(name).matches();
        }
        return name.startsWith("gemma-3") && !name.startsWith("gemma-3-1b");
    }

    /** The chat-completions models known to take {@code image_url} parts. */
    public static boolean openAiChat(String model) {
        return OPENAI_VISION.matcher(name(model)).matches();
    }

    /** The Responses models known to take {@code input_image}. */
    public static boolean responses(String model) {
        return openAiChat(model);
    }

    /**
     * Whether a Responses model takes images inside {@code function_call_output} (OpenAI's own); others (xAI's grok)
     * get them in a user message after the round's outputs, where every server takes them.
     */
    public static boolean responsesInOutput(String model) {
        return RESPONSES_IMAGE_OUTPUT.matcher(name(model)).matches();
    }

    /** Ollama's vision models, known by name; {@code gemma3:1b} and {@code gemma3:270m} are text-only. */
    public static boolean ollama(String model) {
        String full = model.strip().toLowerCase(Locale.ROOT);
        int colon = full.indexOf(':');
        String tag = colon < 0 ? "" : full.substring(colon + 1);
        String name = name(colon < 0 ? full : full.substring(0, colon));
        if (name.equals("gemma3") && (tag.startsWith("1b") || tag.startsWith("270m"))) {
            return false;
        }
        return OLLAMA_VISION.matcher(name).matches();
    }

    /** The name without a gateway's {@code vendor/} prefix (OpenRouter's {@code openai/gpt-4o}), lower case. */
    private static String name(String model) {
        String name = model.strip().toLowerCase(Locale.ROOT);
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }

    /**
     * A result's images split for one request: those to send, and the result's text with a line in place of each image
     * that is not sent, each on a line of its own after the text.
     */
    public record Split(List<Image> sent, String text) {
        public Split {
            sent = List.copyOf(sent);
        }

        public boolean sends() {
            return !sent.isEmpty();
        }
    }

    /**
     * Why the image cannot go to the API without reading its bytes: the model takes no images, the API not its type,
     * or it is over {@link Image#MAX_BYTES}; empty when it may go as far as these say ({@link ImageHeader#problem}
     * checks its bytes).
     */
    static Optional<String> refusal(Image image, boolean modelTakesImages, Set<String> types, String api) {
        if (!modelTakesImages) {
            return Optional.of(NO_IMAGES);
        } else if (!types.contains(image.mimeType())) {
            return Optional.of(api + " does not take " + image.mimeType());
        } else if (image.bytes() > Image.MAX_BYTES) {
            return Optional.of("larger than the "
                    + String.format(Locale.ROOT, "%.2f", Image.MAX_BYTES / (1024.0 * 1024.0)) + " MB an image may be");
        }
        return Optional.empty();
    }

    /**
     * The line a tool message carries for an image that goes in a user message after the round's results, for the
     * APIs whose tool messages take text only.
     */
    public static String followsNote(Image image) {
        return image.label("follows the tool results");
    }

    /** The text that opens a user message carrying one call's images. */
    public static String carriedLabel(Message.ToolResult result) {
        return "Images returned by the " + result.toolName() + " call " + result.toolCallId() + ":";
    }
}
