package dev.dockhand.tools.mcp;

import dev.dockhand.core.Json;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.ImageHeader;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An MCP tool result as what the model reads: text parts as they are, structured content as JSON (when no text part
 * carries it already), images beside the text as images (each provider's writer sends them as its API takes them, or
 * describes them to a model that takes none), audio described by type and size, embedded resources by their text, an
 * embedded image resource as an image, other binary ones described, resource links by name and URI. {@code isError}
 * makes it an error result. An image no request could send, and those past {@link #MAX_IMAGES}, are described in
 * place. The scheduler then cuts the text to the output budget like any tool's output, keeping the
 * whole on disk; the images are not cut.
 */
final class McpResults {
    /** The most images one result keeps; the rest are described. */
    static final int MAX_IMAGES = 8;

    private McpResults() {}

    static ToolResult toResult(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        List<Image> images = new ArrayList<>();
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            Optional<Image> image = image(content);
            if (image.isPresent()) {
                Optional<String> why = whyNotKept(image.get(), images.size());
                if (why.isPresent()) {
                    parts.add(image.get().describe(why.get()));
                } else {
                    images.add(image.get());
                }
            } else {
                parts.add(describe(content));
            }
        }
        if (result.structuredContent() != null) {
            String json = Json.MAPPER.valueToTree(result.structuredContent()).toString();
            if (!parts.contains(json)) {
                parts.add(json);
            }
        }
        String text = !parts.isEmpty()
                ? String.join("\n", parts)
                : images.isEmpty() ? "(the tool returned nothing)" : "(the tool returned " + count(images) + ")";
        if (Boolean.TRUE.equals(result.isError())) {
            return ToolResult.error(ToolErrorType.EXECUTION_FAILED, text).withImages(images);
        }
        String first = text.lines().findFirst().orElse("");
        String display = first.length() > 100 ? Utf16.head(first, 99) + "…" : first;
        if (!images.isEmpty() && !parts.isEmpty()) {
            display += " · " + count(images);
        }
        return ToolResult.success(text, display).withImages(images);
    }

    /**
     * Why an image is described here rather than kept: one no request could send (over {@link Image#MAX_BYTES}, bytes
     * not its type, too many pixels) would only fill memory and the transcript, as would more than {@link #MAX_IMAGES}.
     */
    private static Optional<String> whyNotKept(Image image, int kept) {
        if (image.bytes() > Image.MAX_BYTES) {
            return Optional.of("larger than the "
                    + String.format(Locale.ROOT, "%.2f", Image.MAX_BYTES / (1024.0 * 1024.0)) + " MB an image may be");
        }
        Optional<String> problem = ImageHeader.problem(image);
        if (problem.isPresent()) {
            return problem;
        }
        if (kept >= MAX_IMAGES) {
            return Optional.of("more than the " + MAX_IMAGES + " images a result may carry");
        }
        return Optional.empty();
    }

    private static String count(List<Image> images) {
        return images.size() == 1 ? "an image" : images.size() + " images";
    }

    /**
     * The image an image part holds, or an embedded resource whose blob is an image; empty for anything else, and for
     * an image whose data is not base64, which is then described like any content that cannot be shown.
     */
    private static Optional<Image> image(McpSchema.Content content) {
        String mimeType = null;
        String data = null;
        if (content instanceof McpSchema.ImageContent image) {
            mimeType = image.mimeType();
            data = image.data();
        } else if (content instanceof McpSchema.EmbeddedResource embedded
                && embedded.resource() instanceof McpSchema.BlobResourceContents blob
                && blob.mimeType() != null
                && blob.mimeType().startsWith("image/")) {
            mimeType = blob.mimeType();
            data = blob.blob();
        }
        if (mimeType == null || data == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Image.fromBase64(mimeType, data));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }

    private static String describe(McpSchema.Content content) {
        if (content instanceof McpSchema.TextContent text) {
            return text.text();
        }
        if (content instanceof McpSchema.ImageContent image) {
            return "[image " + image.mimeType() + ", " + decodedSize(image.data()) + " bytes, not shown: its data is"
                    + " not base64]";
        }
        if (content instanceof McpSchema.AudioContent audio) {
            return "[audio " + audio.mimeType() + ", " + decodedSize(audio.data()) + " bytes, not shown]";
        }
        if (content instanceof McpSchema.EmbeddedResource embedded) {
            if (embedded.resource() instanceof McpSchema.TextResourceContents text) {
                return "[resource " + text.uri() + "]\n" + text.text();
            }
            return "[resource " + embedded.resource().uri() + ", "
                    + embedded.resource().mimeType() + ", binary, not shown]";
        }
        if (content instanceof McpSchema.ResourceLink link) {
            return "[resource link " + link.name() + ": " + link.uri()
                    + (link.description() == null ? "" : " — " + link.description()) + "]";
        }
        return "[" + content.type() + " content, not shown]";
    }

    private static long decodedSize(String base64) {
        if (base64 == null) {
            return 0;
        }
        try {
            return Base64.getDecoder().decode(base64).length;
        } catch (IllegalArgumentException e) {
            return base64.length();
        }
    }
}
