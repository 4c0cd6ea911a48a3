package dev.dockhand.core.testing;

import static dev.dockhand.core.testing.WireProblems.isText;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.ImageHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where each API takes images, and in what form; an image anywhere else is a 400. Written from the APIs' references
 * (Anthropic: image blocks in user turns, in {@code tool_result} content among them; OpenAI chat completions:
 * {@code image_url} parts in user messages only; Responses: {@code input_image} in input messages and, as a list, in a
 * {@code function_call_output}; Gemini: {@code inlineData} parts, inside a {@code functionResponse} only from Gemini 3;
 * Ollama: plain base64 strings in a message's {@code images}) and from the errors they answer, quoted where recorded.
 * Every API decodes the image and refuses data that is not the type it is declared as (Anthropic: "Image does not
 * match the provided media type"), so the bytes are checked against their type's signature too.
 */
final class ImageRules {
    private static final Set<String> ANTHROPIC_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    private static final Set<String> OPENAI_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");
    private static final Set<String> GEMINI_TYPES =
            Set.of("image/jpeg", "image/png", "image/webp", "image/heic", "image/heif");
    /** What Gemini 3 takes inside a functionResponse (its multimodal function responses). */
    private static final Set<String> GEMINI_RESPONSE_TYPES =
            Set.of("image/jpeg", "image/png", "image/webp", "application/pdf", "text/plain");

    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+);base64,(.*)", Pattern.DOTALL);
    private static final Pattern GEMINI_3 =
            Pattern.compile("gemini-(?:[3-9]|\\d{2,})(?:\\.\\d+)?-.*|gemini-(?:flash|flash-lite|pro)-latest");

    /** The first bytes of each image type, as the APIs' decoders check them. */
    private static final Map<String, String> SIGNATURES = Map.of(
            "image/png", "\u0089PNG\r\n\u001a\n",
            "image/jpeg", "\u00ff\u00d8\u00ff",
            "image/gif", "GIF8");

    private ImageRules() {}

    /** Why {@code data} is not an image of {@code mimeType}; "" when it is one. */
    static String imageProblem(String mimeType, String data) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(data);
        } catch (IllegalArgumentException e) {
            return "the image data is not valid base64";
        }
        if (bytes.length == 0) {
            return "the image data is empty";
        }
        String head = new String(bytes, 0, Math.min(bytes.length, 12), StandardCharsets.ISO_8859_1);
        String signature = SIGNATURES.get(mimeType);
        if (signature != null && !head.startsWith(signature)) {
            return "Image does not match the provided media type " + mimeType;
        }
        if (mimeType.equals("image/webp") && !(head.startsWith("RIFF") && head.startsWith("WEBP", 8))) {
            return "Image does not match the provided media type " + mimeType;
        }
        return "";
    }

    /**
     * Chat completions: "Image URLs are only allowed for messages with role 'user'" (OpenAI's 400 for an image_url
     * part in a tool, assistant or system message); an inline image is a base64 data URL of a type OpenAI takes.
     * DeepSeek's API takes no image parts at all ("unknown variant `image_url`, expected `text`").
     */
    static void openAi(JsonNode body, WireProblems problems) {
        boolean deepSeek = body.path("model").asText().startsWith("deepseek-");
        List<Seen> seen = new ArrayList<>();
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            JsonNode content = message.path("content");
            for (int p = 0; p < content.size(); p++) {
                JsonNode part = content.get(p);
                if (!part.path("type").asText().equals("image_url")) {
                    continue;
                }
                String where = "messages[" + i + "].content[" + p + "]";
                problems.require(
                        !deepSeek,
                        "Failed to deserialize the JSON body into the target type: " + where
                                + ": unknown variant `image_url`, expected `text`");
                problems.require(
                        role.equals("user"),
                        "Invalid 'messages[" + i + "]'. Image URLs are only allowed for messages with role 'user',"
                                + " but this message with role '" + role + "' contains an image URL.");
                dataUrl(part.path("image_url").get("url"), OPENAI_TYPES, where + ".image_url.url", problems, seen);
            }
        }
        openAiLimits(seen, problems);
    }

    /**
     * Responses: {@code input_image} parts in input messages (not the assistant's, which ResponsesRules checks) and
     * in a {@code function_call_output}'s list output, which takes input_text, input_image and input_file parts; an
     * inline image is a data URL, {@code detail} one of low, high, auto.
     */
    static void responses(JsonNode body, WireProblems problems) {
        List<Seen> seen = new ArrayList<>();
        JsonNode input = body.path("input");
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String type = item.path("type").asText(item.has("role") ? "message" : "");
            JsonNode parts;
            String where;
            if (type.equals("function_call_output") && item.path("output").isArray()) {
                parts = item.get("output");
                where = "input[" + i + "].output";
                for (int p = 0; p < parts.size(); p++) {
                    String part = parts.get(p).path("type").asText();
                    problems.require(
                            Set.of("input_text", "input_image", "input_file").contains(part),
                            "Invalid value for '" + where + "[" + p + "].type': '" + part
                                    + "'. Supported values are: 'input_text', 'input_image' and 'input_file'.");
                }
            } else if (type.equals("message") && item.path("content").isArray()) {
                parts = item.get("content");
                where = "input[" + i + "].content";
            } else {
                continue;
            }
            for (int p = 0; p < parts.size(); p++) {
                JsonNode part = parts.get(p);
                if (!part.path("type").asText().equals("input_image")) {
                    continue;
                }
                String at = where + "[" + p + "]";
                if (!part.hasNonNull("file_id")) {
                    dataUrl(part.get("image_url"), OPENAI_TYPES, at + ".image_url", problems, seen);
                }
                JsonNode detail = part.get("detail");
                problems.require(
                        detail == null || Set.of("low", "high", "auto").contains(detail.asText()),
                        "Invalid value for '" + at + ".detail': supported values are 'low', 'high' and 'auto'.");
            }
        }
        openAiLimits(seen, problems);
    }

    /**
     * Anthropic: image blocks only in user turns, at the top of one or in a {@code tool_result}'s content, whose
     * blocks may be text or image (and documents, which Dockhand does not send); a base64 source of one of the four
     * types the API takes.
     */
    static void anthropic(JsonNode body, WireProblems problems) {
        List<Seen> seen = new ArrayList<>();
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText();
            JsonNode content = messages.get(i).path("content");
            for (int b = 0; b < content.size(); b++) {
                JsonNode block = content.get(b);
                String where = "messages." + i + ".content." + b;
                String type = block.path("type").asText();
                if (type.equals("image")) {
                    problems.require(
                            role.equals("user"),
                            where + ": image blocks may only be in a user message; found one in an " + role
                                    + " message.");
                    anthropicImage(block, where + ".image", problems, seen);
                } else if (type.equals("tool_result") && block.path("content").isArray()) {
                    JsonNode inner = block.get("content");
                    // Recorded: "all content must be type `text` if `is_error` is true"
                    // (vellum-ai/vellum-assistant#18387).
                    boolean error = block.path("is_error").asBoolean(false);
                    for (JsonNode part : inner) {
                        problems.require(
                                !error || part.path("type").asText().equals("text"),
                                where + ".tool_result: all content must be type `text` if `is_error` is true");
                    }
                    for (int c = 0; c < inner.size(); c++) {
                        String innerType = inner.get(c).path("type").asText();
                        String at = where + ".tool_result.content." + c;
                        problems.require(
                                Set.of("text", "image", "document", "search_result")
                                        .contains(innerType),
                                at + ": Input tag '" + innerType + "' found using 'type' does not match any of the"
                                        + " expected tags: 'text', 'image', 'search_result', 'document'");
                        if (innerType.equals("text")) {
                            problems.require(
                                    !inner.get(c).path("text").asText().isEmpty(),
                                    at + ": text content blocks must be non-empty");
                        }
                        if (innerType.equals("image")) {
                            anthropicImage(inner.get(c), at + ".image", problems, seen);
                        }
                    }
                }
            }
        }
        anthropicLimits(body, seen, problems);
    }

    private static void anthropicImage(JsonNode block, String where, WireProblems problems, List<Seen> seen) {
        JsonNode source = block.path("source");
        String sourceType = source.path("type").asText();
        if (sourceType.equals("url")) {
            return;
        }
        problems.require(
                sourceType.equals("base64"),
                where + ".source: Input tag '" + sourceType + "' found using 'type' does not match any of the"
                        + " expected tags: 'base64', 'url', 'file'");
        String mediaType = source.path("media_type").asText();
        if (!ANTHROPIC_TYPES.contains(mediaType)) {
            problems.add(where + ".source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif'"
                    + " or 'image/webp'");
            return;
        }
        String problem = imageProblem(mediaType, source.path("data").asText(""));
        problems.require(problem.isEmpty(), where + ".source.base64.data: " + problem);
        seen.add(new Seen(where, mediaType, source.path("data").asText("")));
    }

    /**
     * Gemini: {@code inlineData} with a type it takes and base64 data; a {@code functionResponse} may hold
     * {@code parts} of inlineData only on Gemini 3 and later (multimodal function responses; Gemini 2.5 answers
     * them with 400, so its images go as parts of the turn beside the responses).
     */
    static void gemini(String model, JsonNode body, WireProblems problems) {
        List<Seen> seen = new ArrayList<>();
        JsonNode contents = body.path("contents");
        for (int i = 0; i < contents.size(); i++) {
            JsonNode parts = contents.get(i).path("parts");
            for (int p = 0; p < parts.size(); p++) {
                JsonNode part = parts.get(p);
                String where = "contents[" + i + "].parts[" + p + "]";
                if (part.has("inlineData")) {
                    geminiBlob(part.get("inlineData"), GEMINI_TYPES, where + ".inline_data", problems, seen);
                }
                JsonNode inner = part.path("functionResponse").get("parts");
                if (inner == null) {
                    continue;
                }
                String at = where + ".function_response.parts";
                if (!GEMINI_3.matcher(model).matches()) {
                    problems.add(at + ": multimodal function responses are not supported by " + model + ".");
                    continue;
                }
                for (int r = 0; r < inner.size(); r++) {
                    JsonNode blob = inner.get(r).get("inlineData");
                    if (blob == null) {
                        problems.add(at + "[" + r + "]: a function response part holds inline_data.");
                        continue;
                    }
                    geminiBlob(blob, GEMINI_RESPONSE_TYPES, at + "[" + r + "].inline_data", problems, seen);
                }
            }
        }
        geminiLimits(body, seen, problems);
    }

    private static void geminiBlob(
            JsonNode blob, Set<String> types, String where, WireProblems problems, List<Seen> seen) {
        String mimeType = blob.path("mimeType").asText();
        if (!types.contains(mimeType)) {
            problems.add(where + ".mime_type: Unsupported MIME type: " + mimeType);
            return;
        }
        String problem = mimeType.startsWith("image/")
                ? imageProblem(mimeType, blob.path("data").asText(""))
                : "";
        problems.require(problem.isEmpty(), where + ".data: " + problem);
        if (mimeType.startsWith("image/")) {
            seen.add(new Seen(where, mimeType, blob.path("data").asText("")));
        }
    }

    /**
     * Ollama: {@code images} is a list of plain base64 strings; Go's decoder refuses a data URL's prefix ("illegal
     * base64 data at input byte 4").
     */
    static void ollama(JsonNode body, WireProblems problems) {
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode images = messages.get(i).get("images");
            if (images == null) {
                continue;
            }
            if (!images.isArray()) {
                problems.add("messages[" + i + "].images: cannot unmarshal " + WireProblems.quote(images)
                        + " into a list of images");
                continue;
            }
            for (int m = 0; m < images.size(); m++) {
                JsonNode image = images.get(m);
                boolean valid = isText(image);
                if (valid) {
                    try {
                        valid = Base64.getDecoder().decode(image.asText()).length > 0;
                    } catch (IllegalArgumentException e) {
                        valid = false;
                    }
                }
                problems.require(valid, "messages[" + i + "].images[" + m + "]: illegal base64 data");
            }
        }
    }

    /** A data URL of a type {@code types} holds whose data is that image, or an http(s) URL. */
    private static void dataUrl(JsonNode url, Set<String> types, String where, WireProblems problems, List<Seen> seen) {
        if (!isText(url)) {
            problems.add("Missing required parameter: '" + where + "'.");
            return;
        }
        String text = url.asText();
        if (text.startsWith("https://") || text.startsWith("http://")) {
            return;
        }
        Matcher matcher = DATA_URL.matcher(text);
        if (!matcher.matches()) {
            problems.add("Invalid '" + where + "'. Expected a base64-encoded data URL with an image MIME type (e.g."
                    + " 'data:image/png;base64,...') or an http(s) URL.");
            return;
        }
        if (!types.contains(matcher.group(1))) {
            problems.add("Invalid '" + where + "'. Unsupported MIME type '" + matcher.group(1) + "'.");
            return;
        }
        String problem = imageProblem(matcher.group(1), matcher.group(2));
        problems.require(problem.isEmpty(), "Invalid '" + where + "': " + problem + ".");
        seen.add(new Seen(where, matcher.group(1), matcher.group(2)));
    }

    /** An image a request carries inline: where, its type, and its base64 text. */
    private record Seen(String where, String mimeType, String data) {
        Optional<ImageHeader.Pixels> pixels() {
            return ImageHeader.pixels(new Image(mimeType, data));
        }
    }

    /**
     * A megabyte where the API's own messages do not say which (the stricter reading), and the mebibyte where they
     * do: Anthropic's "5242880 bytes" an image, Gemini's "20971520 bytes" a request.
     */
    private static final long MB = 1_000_000;

    private static final long MIB = 1024 * 1024;

    /**
     * Anthropic's limits on one request (docs.claude.com, build-with-claude/vision and api/overview): at most 100
     * images, each at most 8000x8000 px and 5 MB of base64, or 2000x2000 px once there are more than 20; the whole
     * request at most 32 MB, a 413 past it. The sizes are read from the images' headers (Dockhand's {@link
     * ImageHeader}, which ImageHeaderTest checks against each format).
     */
    private static void anthropicLimits(JsonNode body, List<Seen> seen, WireProblems problems) {
        long bytes = Json.writeBytes(body).length;
        problems.require(
                bytes <= 32 * MB,
                "request_too_large: the request is " + bytes + " bytes, more than the 32 MB a request may be");
        problems.require(
                seen.size() <= 100,
                "messages: " + seen.size() + " images in one request, more than the 100 a request may have");
        int side = seen.size() > 20 ? 2000 : 8000;
        for (Seen image : seen) {
            problems.require(
                    image.data().length() <= 5 * MIB,
                    image.where() + ".source.base64: image exceeds 5 MB maximum: "
                            + image.data().length() + " bytes > " + 5 * MIB + " bytes");
            image.pixels()
                    .filter(pixels -> pixels.width() > side || pixels.height() > side)
                    .ifPresent(pixels -> problems.add(image.where() + ".source.base64.data: the image is " + pixels
                            + " px; with " + seen.size() + " images in the request an image may be at most " + side
                            + " pixels a side"));
        }
    }

    /**
     * OpenAI's limits on one request, chat completions and Responses alike (platform.openai.com, guides/images-vision,
     * "Image input requirements"): at most 500 images and 50 MB of image bytes, 20 MB an image. The base64 text is
     * counted, which is the stricter reading of "image bytes".
     */
    private static void openAiLimits(List<Seen> seen, WireProblems problems) {
        problems.require(
                seen.size() <= 500,
                "Too many images in the request: " + seen.size() + ". A request may have at most 500 images.");
        long total = seen.stream().mapToLong(image -> image.data().length()).sum();
        problems.require(
                total <= 50 * MB,
                "The request's images are " + total + " bytes, more than the 50 MB of images a request may carry.");
        for (Seen image : seen) {
            problems.require(
                    image.data().length() <= 20 * MB,
                    "Invalid '" + image.where() + "': the image is larger than 20 MB.");
        }
    }

    /**
     * Gemini's limits on one request (ai.google.dev, gemini-api/docs/image-understanding): inline data only while the
     * whole request is under 20 MB, and at most 3,600 images.
     */
    private static void geminiLimits(JsonNode body, List<Seen> seen, WireProblems problems) {
        long bytes = Json.writeBytes(body).length;
        problems.require(
                bytes <= 20 * MIB,
                "Request payload size exceeds the limit: " + 20 * MIB + " bytes (it is " + bytes + ").");
        problems.require(
                seen.size() <= 3_600,
                "contents: " + seen.size() + " images in one request, more than the 3600 a request may have.");
    }
}
