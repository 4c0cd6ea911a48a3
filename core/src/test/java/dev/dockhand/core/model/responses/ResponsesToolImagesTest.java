package dev.dockhand.core.model.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.testing.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Images in tool results on the Responses API. */
class ResponsesToolImagesTest {
    private static JsonNode write(String model) {
        byte[] body = new ResponsesRequestWriter().write(new ModelRequest(model, ToolImages.conversation(), List.of()));
        return Json.read(new String(body, StandardCharsets.UTF_8));
    }

    @Test
    void openAisModelsGetTheImageInsideTheFunctionCallOutput() {
        JsonNode body = write("gpt-5");

        assertEquals(ToolImages.request("openai-responses", "tool_result_image_request"), body.get("input"));
        assertEquals(List.of(), WireFormat.OPENAI_RESPONSES.problems(body));
    }

    @Test
    void otherServersVisionModelsGetItInAUserMessageAfterTheRoundsOutputs() {
        JsonNode body = write("grok-4");

        assertEquals(
                ToolImages.request("openai-responses", "tool_result_image_after_outputs_request"), body.get("input"));
        assertEquals(List.of(), WireFormat.OPENAI_RESPONSES.problems(body));
    }

    @Test
    void aModelWithoutVisionReadsADescription() {
        JsonNode body = write("gpt-3.5-turbo");

        assertEquals(
                Json.read("{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"Screenshot taken.\\n"
                        + "[image: image/png, 69 bytes, not shown: this model does not take images]\"}"),
                body.at("/input/3"));
        assertEquals(7, body.get("input").size());
    }
}
