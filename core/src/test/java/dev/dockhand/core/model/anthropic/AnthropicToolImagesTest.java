package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.testing.WireFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Images in tool results on Anthropic's Messages API: image blocks inside the tool_result's content. */
class AnthropicToolImagesTest {
    @Test
    void theImageIsAnImageBlockInTheToolResultsContent() {
        JsonNode body = AnthropicRequestWriter.write(
                new ModelRequest("claude-sonnet-4-5", ToolImages.conversation(), List.of()), 1024, false);

        assertEquals(ToolImages.request("anthropic", "tool_result_image_request"), body);
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(body));
    }

    @Test
    void aTypeTheApiDoesNotTakeAndAModelWithoutVisionAreDescribed() {
        Image svg = Image.of("image/svg+xml", "<svg/>".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        List<Message> messages = new java.util.ArrayList<>(ToolImages.conversation());
        messages.set(3, new Message.ToolResult("c1", "shot", "Screenshot taken.", false, List.of(svg)));

        JsonNode svgBody =
                AnthropicRequestWriter.write(new ModelRequest("claude-sonnet-4-5", messages, List.of()), 1024, false);
        JsonNode oldBody = AnthropicRequestWriter.write(
                new ModelRequest("claude-2.1", ToolImages.conversation(), List.of()), 1024, false);

        assertEquals(
                Json.read("{\"type\":\"tool_result\",\"tool_use_id\":\"c1\",\"content\":\"Screenshot taken.\\n"
                        + "[image: image/svg+xml, 6 bytes, not shown: Anthropic does not take image/svg+xml]\"}"),
                svgBody.at("/messages/2/content/0"));
        assertEquals(
                Json.read("{\"type\":\"tool_result\",\"tool_use_id\":\"c1\",\"content\":\"Screenshot taken.\\n"
                        + "[image: image/png, 69 bytes, not shown: this model does not take images]\"}"),
                oldBody.at("/messages/2/content/0"));
    }

    @Test
    void anErrorResultsImageGoesAfterTheRoundsResultsAsItsContentMayOnlyBeText() {
        List<Message> messages = new java.util.ArrayList<>(ToolImages.conversation());
        messages.set(3, new Message.ToolResult("c1", "shot", "The page failed.", true, List.of(ToolImages.PNG)));

        JsonNode body =
                AnthropicRequestWriter.write(new ModelRequest("claude-sonnet-4-5", messages, List.of()), 1024, false);

        assertEquals(
                Json.read(("{'role':'user','content':[{'type':'tool_result','tool_use_id':'c1','content':'The page"
                                + " failed.\\n[image: image/png, 69 bytes, follows the tool results]','is_error':true},"
                                + "{'type':'tool_result','tool_use_id':'c2','content':'A'},"
                                + "{'type':'text','text':'Images returned by the shot call c1:'},"
                                + "{'type':'image','source':{'type':'base64','media_type':'image/png','data':'"
                                + ToolImages.PNG_BASE64 + "'}}]}")
                        .replace('\'', '"')),
                body.at("/messages/2"));
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(body));
    }
}
