package dev.dockhand.core.model.gemini;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.testing.WireFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Images in function responses: Gemini 3 takes them inside the functionResponse ({@code parts} of inlineData);
 * Gemini 2.5 refuses that and gets them as parts of the same user turn after the round's responses.
 */
class GeminiToolImagesTest {
    private static JsonNode write(String model) {
        JsonNode body = GeminiRequestWriter.write(new ModelRequest(model, ToolImages.conversation(), List.of()));
        assertEquals(
                List.of(),
                WireFormat.GEMINI.problems("/v1beta/models/" + model + ":streamGenerateContent?alt=sse", body));
        return body;
    }

    @Test
    void gemini3GetsTheImageInsideTheFunctionResponse() {
        assertEquals(
                ToolImages.request("gemini", "gemini3_tool_result_image_request"),
                write("gemini-3-flash-preview").get("contents"));
    }

    @Test
    void gemini25GetsItAsAPartAfterTheRoundsResponses() {
        assertEquals(
                ToolImages.request("gemini", "gemini25_tool_result_image_request"),
                write("gemini-2.5-flash").get("contents"));
    }

    @Test
    void aModelWithoutVisionReadsADescription() {
        assertEquals(
                "Screenshot taken.\n[image: image/png, 69 bytes, not shown: this model does not take images]",
                write("gemini-2.5-flash-preview-tts")
                        .at("/contents/2/parts/0/functionResponse/response/output")
                        .asText());
    }
}
