package dev.dockhand.core.model.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.testing.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Images in tool results on chat completions, whose tool messages take text only. */
class OpenAiToolImagesTest {
    private static JsonNode write(String model) {
        byte[] body = new OpenAiRequestWriter().write(new ModelRequest(model, ToolImages.conversation(), List.of()));
        return Json.read(new String(body, StandardCharsets.UTF_8));
    }

    @Test
    void aVisionModelGetsTheImageInAUserMessageAfterTheRoundsLastToolMessage() {
        JsonNode body = write("gpt-4o");

        assertEquals(ToolImages.request("openai", "tool_result_image_request"), body);
        assertEquals(List.of(), WireFormat.OPENAI.problems(body));
    }

    @Test
    void aModelWithoutVisionReadsADescriptionAndNoImageIsSent() {
        JsonNode body = write("deepseek-chat");

        assertEquals(
                Json.read("{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"Screenshot taken.\\n[image:"
                        + " image/png, 69 bytes, not shown: this model does not take images]\"}"),
                body.at("/messages/3"));
        assertEquals(List.of("tool", "tool", "assistant", "user"), roles(body, 3));
        assertEquals(List.of(), WireFormat.OPENAI.problems(body));
    }

    private static List<String> roles(JsonNode body, int from) {
        List<String> roles = new java.util.ArrayList<>();
        JsonNode messages = body.get("messages");
        for (int i = from; i < messages.size(); i++) {
            roles.add(messages.get(i).get("role").asText());
        }
        return roles;
    }
}
