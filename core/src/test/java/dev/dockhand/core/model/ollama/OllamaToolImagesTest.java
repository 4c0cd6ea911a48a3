package dev.dockhand.core.model.ollama;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.testing.WireFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Images in tool results on Ollama: plain base64 in the tool message's {@code images}, for its vision models. */
class OllamaToolImagesTest {
    @Test
    void aVisionModelGetsTheImageOnTheToolMessage() {
        JsonNode body = OllamaClient.write(new ModelRequest("qwen2.5vl:7b", ToolImages.conversation(), List.of()));

        assertEquals(ToolImages.request("ollama", "tool_result_image_request"), body);
        assertEquals(List.of(), WireFormat.OLLAMA.problems(body));
    }

    @Test
    void aTextOnlyModelReadsADescription() {
        JsonNode body = OllamaClient.write(new ModelRequest("gemma3:1b", ToolImages.conversation(), List.of()));

        assertEquals(
                Json.read("{\"role\":\"tool\",\"tool_name\":\"shot\",\"content\":\"Screenshot taken.\\n[image:"
                        + " image/png, 69 bytes, not shown: this model does not take images]\"}"),
                body.at("/messages/3"));
    }
}
