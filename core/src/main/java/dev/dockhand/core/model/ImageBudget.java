package dev.dockhand.core.model;

import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.ImageHeader;
import dev.dockhand.core.conversation.Message;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which of the history's images one request carries. Every image a tool returned stays in the conversation and every
 * request carries the whole conversation, while each API takes only so many images, and so many bytes, in one request:
 * past that every request is refused (Anthropic: 400 past 100 images, 413 past 32 MB), a resumed session's too, and
 * only clearing the history would get out of it. So a request carries the newest images that fit its API's {@link
 * Limits}, and in place of each older one a line naming it ({@link #leftOut}). The conversation keeps every image: the
 * next request, or one to another provider after {@code /model}, plans afresh with its own limits.
 *
 * <p>The images an API will not take at all (the model takes none, the type, the size; see {@link ImageInput}) count
 * for nothing. Of the others, the oldest are left out in steps of {@link #STEP}: a request that leaves out one more
 * image than the last changes the history where that image is, and a provider's prompt cache (Anthropic's, OpenAI's
 * and Gemini's alike) keeps only the part of a request before its first change, so moving the cut one image a round
 * would write the whole history to the cache again every round. In steps, it moves once in {@link #STEP} images.
 */
public final class ImageBudget {
    /** How many images the cut between left-out and carried images moves by when it moves; see the class comment. */
    static final int STEP = 5;

    /**
     * What Dockhand sends one API at most: {@code maxImages} images and {@code maxBytes} of their base64 text, which is
     * what a request carries, with the rest of the request under the API's own limit.
     *
     * @param api the API's name for the line that stands for a left-out image
     * @param types the image types the API takes
     */
    public record Limits(String api, Set<String> types, int maxImages, long maxBytes) {
        public Limits {
            types = Set.copyOf(types);
        }

        /** {@code 20 images and 24 MB}, or {@code no limit}. */
        String describe() {
            if (maxImages == Integer.MAX_VALUE && maxBytes == Long.MAX_VALUE) {
                return "no limit";
            }
            return maxImages + " images and " + maxBytes / 1_000_000 + " MB";
        }
    }

    /**
     * Anthropic's Messages API (docs.claude.com, build-with-claude/vision, "Basics and Limits"): up to 100 images a
     * request (600 on models with more than 200k tokens of context), each at most 8000x8000 px, or 2000x2000 px once
     * the request has more than 20; and a request is at most 32 MB (api/overview, "Request size limits"; a 413 past
     * it). Twenty images keep the 2000 px rule from ever applying: it would make whether an image may go depend on how
     * many others go, and screenshots are mostly larger (2560x1440, 2880x1800). Twenty large images are already some
     * 32,000 tokens a request, Claude scaling each to about 1,600. 24 MB of images leave 8 MB for the text.
     */
    public static final Limits ANTHROPIC = new Limits("Anthropic", ImageInput.ANTHROPIC_TYPES, 20, 24_000_000);

    /**
     * OpenAI's chat completions and Responses APIs alike (platform.openai.com, guides/images-vision, "Image input
     * requirements"): up to 500 images and 50 MB of image bytes a request, 20 MB an image. 36 MB of base64 text stays
     * under the 50 MB whether OpenAI counts the text or the bytes it decodes to.
     */
    public static final Limits OPENAI = new Limits("OpenAI", ImageInput.OPENAI_TYPES, 500, 36_000_000);

    /**
     * Gemini's generateContent (ai.google.dev, gemini-api/docs/image-understanding): inline image data while the whole
     * request, prompt and system instruction included, is under 20 MB, the Files API past it; up to 3,600 images a
     * request (Vertex AI lists 900 for Gemini 3 Pro: the lower is kept). Google raised the inline limit to 100 MB in
     * January 2026 ("Increased file size limits", blog.google), "with varying limits based on data types"; 20 MB holds
     * on every server that speaks the API. 14 MB of images leave 6 MB for the text of a 1M-token context.
     */
    public static final Limits GEMINI = new Limits("Gemini", ImageInput.GEMINI_TYPES, 900, 14_000_000);

    /**
     * Ollama documents no limit on images or on a request's size, and needs none: it drops the oldest messages that
     * do not fit the model's context itself, counting each image as 768 tokens (server/prompt.go, chatPrompt).
     */
    public static final Limits OLLAMA =
            new Limits("Ollama", ImageInput.OLLAMA_TYPES, Integer.MAX_VALUE, Long.MAX_VALUE);

    private final Map<Message.ToolResult, ImageInput.Split> splits;

    private ImageBudget(Map<Message.ToolResult, ImageInput.Split> splits) {
        this.splits = splits;
    }

    /**
     * Plans which images of {@code messages}' tool results one request carries.
     *
     * @param modelTakesImages whether the request's model takes images at all
     */
    public static ImageBudget plan(List<Message> messages, boolean modelTakesImages, Limits limits) {
        List<Message.ToolResult> results = new ArrayList<>();
        List<Image> candidates = new ArrayList<>();
        for (Message message : messages) {
            if (message instanceof Message.ToolResult result) {
                results.add(result);
                for (Image image : result.images()) {
                    if (ImageInput.refusal(image, modelTakesImages, limits.types(), limits.api())
                            .isEmpty()) {
                        candidates.add(image);
                    }
                }
            }
        }
        int cut = cut(candidates, limits);
        Map<Message.ToolResult, ImageInput.Split> splits = new IdentityHashMap<>();
        int candidate = 0;
        for (Message.ToolResult result : results) {
            List<Image> sent = new ArrayList<>();
            StringBuilder text = new StringBuilder(result.content());
            for (Image image : result.images()) {
                Optional<String> refused = ImageInput.refusal(image, modelTakesImages, limits.types(), limits.api());
                String line = null;
                if (refused.isPresent()) {
                    line = image.describe(refused.get());
                } else if (candidate++ < cut) {
                    line = leftOut(image, limits);
                } else {
                    // Only the images a request carries are decoded to check their bytes: the older ones, which
                    // may be hundreds, cost nothing.
                    line = ImageHeader.problem(image).map(image::describe).orElse(null);
                }
                if (line == null) {
                    sent.add(image);
                } else {
                    text.append(text.length() == 0 ? "" : "\n").append(line);
                }
            }
            splits.put(result, new ImageInput.Split(sent, text.toString()));
        }
        return new ImageBudget(splits);
    }

    /**
     * How many of the candidates, oldest first, are left out: the least multiple of {@link #STEP} that leaves the rest
     * within the limits, or, when leaving out one step more would leave none of the newest step's images, the least
     * number that does (an image is at most {@link Image#MAX_BYTES}, so the newest always fits).
     */
    static int cut(List<Image> candidates, Limits limits) {
        int count = candidates.size();
        long[] bytesFrom = new long[count + 1];
        for (int i = count - 1; i >= 0; i--) {
            bytesFrom[i] = bytesFrom[i + 1] + candidates.get(i).data().length();
        }
        int cut = 0;
        while (count - cut > limits.maxImages() || bytesFrom[cut] > limits.maxBytes()) {
            cut += cut + STEP < count ? STEP : 1;
        }
        return cut;
    }

    /** The result's text and the images this request carries of it, each image it leaves out named in the text. */
    public ImageInput.Split split(Message.ToolResult result) {
        ImageInput.Split split = splits.get(result);
        if (split == null) {
            throw new IllegalArgumentException("the tool result " + result.toolCallId() + " is not in the plan");
        }
        return split;
    }

    /**
     * The line that stands for an image a request leaves out: what the image is, that newer ones filled the request,
     * and how to see it again. It says nothing of how many images the request carries, so that it stays the same
     * bytes from request to request until the cut moves again.
     */
    static String leftOut(Image image, Limits limits) {
        String pixels = ImageHeader.pixels(image).map(size -> size + " px, ").orElse("");
        return image.label(pixels + "left out of this request: newer images fill the " + limits.describe() + " "
                + limits.api() + " is sent at most; call the tool again to see it");
    }
}
