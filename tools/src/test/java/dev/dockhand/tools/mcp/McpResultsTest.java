package dev.dockhand.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An MCP result's content as Dockhand's tool result: images beside the text, the rest as text. */
class McpResultsTest {
    private static final String PNG =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

    private static ToolResult convert(boolean error, McpSchema.Content... content) {
        return McpResults.toResult(McpSchema.CallToolResult.builder()
                .content(List.of(content))
                .isError(error)
                .build());
    }

    @Test
    void anImageAndAnEmbeddedImageResourceComeBesideTheText() {
        McpSchema.Content embedded = McpSchema.EmbeddedResource.builder(
                        McpSchema.BlobResourceContents.builder("file:///logo.png", PNG)
                                .mimeType("image/png")
                                .build())
                .build();

        assertEquals(
                ToolResult.success("Here it is.", "Here it is. · 2 images")
                        .withImages(List.of(new Image("image/png", PNG), new Image("image/png", PNG))),
                convert(
                        false,
                        McpSchema.TextContent.builder("Here it is.").build(),
                        McpSchema.ImageContent.builder(PNG, "image/png").build(),
                        embedded));
    }

    @Test
    void anImageAloneSaysSoAndAnErrorKeepsItsImage() {
        McpSchema.Content image =
                McpSchema.ImageContent.builder(PNG, "image/png").build();

        assertEquals(
                ToolResult.success("(the tool returned an image)", "(the tool returned an image)")
                        .withImages(List.of(new Image("image/png", PNG))),
                convert(false, image));
        assertEquals(
                ToolResult.error(ToolErrorType.EXECUTION_FAILED, "the page did not load")
                        .withImages(List.of(new Image("image/png", PNG))),
                convert(
                        true,
                        McpSchema.TextContent.builder("the page did not load").build(),
                        image));
    }

    @Test
    void imagesNoRequestCouldSendAndThosePastEightAreDescribedInPlace() {
        byte[] big = new byte[(int) Image.MAX_BYTES + 1];
        System.arraycopy(java.util.Base64.getDecoder().decode(PNG), 0, big, 0, 69);
        List<McpSchema.Content> content = new java.util.ArrayList<>();
        content.add(McpSchema.ImageContent.builder(java.util.Base64.getEncoder().encodeToString(big), "image/png")
                .build());
        content.add(McpSchema.ImageContent.builder(PNG, "image/gif").build());
        for (int i = 0; i < 9; i++) {
            content.add(McpSchema.ImageContent.builder(PNG, "image/png").build());
        }

        assertEquals(
                ToolResult.success(
                                "[image: image/png, 3.8 MB, not shown: larger than the 3.75 MB an image may be]\n"
                                        + "[image: image/gif, 69 bytes, not shown: its bytes are not a valid"
                                        + " image/gif]\n"
                                        + "[image: image/png, 69 bytes, not shown: more than the 8 images a result"
                                        + " may carry]",
                                "[image: image/png, 3.8 MB, not shown: larger than the 3.75 MB an image may be] · 8"
                                        + " images")
                        .withImages(java.util.Collections.nCopies(8, new Image("image/png", PNG))),
                convert(false, content.toArray(McpSchema.Content[]::new)));
    }

    @Test
    void anImageWhoseDataIsNotBase64IsDescribed() {
        assertEquals(
                ToolResult.success(
                        "[image image/png, 9 bytes, not shown: its data is not base64]",
                        "[image image/png, 9 bytes, not shown: its data is not base64]"),
                convert(
                        false,
                        McpSchema.ImageContent.builder("not data!", "image/png").build()));
    }
}
