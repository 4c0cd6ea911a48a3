package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scripted model refuses an image where the real API refuses it, and in a form it would not decode. */
class ImageRulesTest {
    private static final String PNG = ToolImages.PNG_BASE64;

    private static JsonNode json(String text) {
        return Json.read(text.replace("${PNG}", PNG).replace('\'', '"'));
    }

    private static final String OPENAI_ROUND = "{'model':'gpt-4o','messages':[{'role':'user','content':'look'},"
            + "{'role':'assistant','content':null,'tool_calls':[{'id':'c1','type':'function',"
            + "'function':{'name':'shot','arguments':'{}'}}]},"
            + "{'role':'tool','tool_call_id':'c1','content':%s}%s]}";

    @Test
    void openAiRefusesAnImageInAToolMessage() {
        String image = "[{'type':'image_url','image_url':{'url':'data:image/png;base64,${PNG}'}}]";

        assertEquals(
                List.of("Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this"
                        + " message with role 'tool' contains an image URL."),
                WireFormat.OPENAI.problems(json(String.format(OPENAI_ROUND, image, ""))));
        assertEquals(
                List.of(),
                WireFormat.OPENAI.problems(
                        json(String.format(OPENAI_ROUND, "'shot'", ",{'role':'user','content':" + image + "}"))));
    }

    @Test
    void openAiRefusesDataThatIsNotTheDeclaredImageAndDeepSeekRefusesImages() {
        String wrong = ",{'role':'user','content':[{'type':'image_url','image_url':"
                + "{'url':'data:image/jpeg;base64,${PNG}'}}]}";

        assertEquals(
                List.of("Invalid 'messages[3].content[0].image_url.url': Image does not match the provided media type"
                        + " image/jpeg."),
                WireFormat.OPENAI.problems(json(String.format(OPENAI_ROUND, "'shot'", wrong))));
        String deepSeek = String.format(OPENAI_ROUND, "'shot'", wrong.replace("jpeg", "png"))
                .replace("gpt-4o", "deepseek-chat")
                .replace("'content':null,", "'content':null,'reasoning_content':'',");
        assertEquals(
                List.of("Failed to deserialize the JSON body into the target type: messages[3].content[0]: unknown"
                        + " variant `image_url`, expected `text`"),
                WireFormat.OPENAI.problems(json(deepSeek)));
    }

    /** The tools of the Anthropic bodies below, which the API wants beside tool blocks. */
    private static final String SHOT_TOOL =
            "'tools':[{'name':'shot','description':'Takes a screenshot.','input_schema':{'type':'object'}}]";

    @Test
    void anthropicRefusesAnImageInAnAssistantTurnAndAnUnknownMediaType() {
        JsonNode body = json("{'model':'m','max_tokens':10,'messages':[{'role':'user','content':'look'},"
                + "{'role':'assistant','content':[{'type':'image','source':{'type':'base64',"
                + "'media_type':'image/png','data':'${PNG}'}},{'type':'tool_use','id':'c1','name':'shot','input':{}}]},"
                + "{'role':'user','content':[{'type':'tool_result','tool_use_id':'c1','content':["
                + "{'type':'image','source':{'type':'base64','media_type':'image/svg+xml','data':'PHN2Zy8+'}}]}]}],"
                + SHOT_TOOL + "}");

        assertEquals(
                List.of(
                        "messages.1.content.0: image blocks may only be in a user message; found one in an assistant"
                                + " message.",
                        "messages.2.content.0.tool_result.content.0.image.source.base64.media_type: Input should be"
                                + " 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"),
                WireFormat.ANTHROPIC.problems(body));
    }

    @Test
    void anthropicRefusesAnImageInAnErrorResult() {
        JsonNode body = json("{'model':'m','max_tokens':10,'messages':[{'role':'user','content':'look'},"
                + "{'role':'assistant','content':[{'type':'tool_use','id':'c1','name':'shot','input':{}}]},"
                + "{'role':'user','content':[{'type':'tool_result','tool_use_id':'c1','is_error':true,'content':["
                + "{'type':'text','text':'failed'},{'type':'image','source':{'type':'base64',"
                + "'media_type':'image/png','data':'${PNG}'}}]}]}]," + SHOT_TOOL + "}");

        assertEquals(
                List.of("messages.2.content.0.tool_result: all content must be type `text` if `is_error` is true"),
                WireFormat.ANTHROPIC.problems(body));
    }

    @Test
    void geminiRefusesImagesInsideAFunctionResponseBeforeGemini3() {
        JsonNode body = json("{'contents':[{'role':'user','parts':[{'text':'look'}]},"
                + "{'role':'model','parts':[{'functionCall':{'name':'shot','args':{}}}]},"
                + "{'role':'user','parts':[{'functionResponse':{'name':'shot','response':{'output':'ok'},"
                + "'parts':[{'inlineData':{'mimeType':'image/png','data':'${PNG}'}}]}}]}]}");

        assertEquals(
                List.of("contents[2].parts[0].function_response.parts: multimodal function responses are not supported"
                        + " by gemini-2.5-flash."),
                WireFormat.GEMINI.problems("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", body));
    }

    @Test
    void ollamaRefusesADataUrlInImages() {
        JsonNode body = json("{'model':'llava','messages':[{'role':'user','content':'look',"
                + "'images':['data:image/png;base64,${PNG}']}]}");

        assertEquals(List.of("messages[0].images[0]: illegal base64 data"), WireFormat.OLLAMA.problems(body));
    }

    @Test
    void responsesRefusesAnOutputPartOfAnotherKind() {
        JsonNode body = json("{'model':'gpt-5','store':false,'input':[{'type':'message','role':'user','content':'go'},"
                + "{'type':'function_call','call_id':'c1','name':'shot','arguments':'{}'},"
                + "{'type':'function_call_output','call_id':'c1','output':[{'type':'image_url',"
                + "'image_url':{'url':'data:image/png;base64,${PNG}'}}]}]}");

        assertEquals(
                List.of("Invalid value for 'input[2].output[0].type': 'image_url'. Supported values are: 'input_text',"
                        + " 'input_image' and 'input_file'."),
                WireFormat.OPENAI_RESPONSES.problems(body));
    }

    /** A request whose one user turn carries {@code count} PNGs of the size given, each {@code bytes} long. */
    private static ObjectNode anthropicImages(int count, int width, int height, int bytes) {
        ObjectNode body = Json.object().put("model", "claude-sonnet-4-5").put("max_tokens", 10);
        ArrayNode content =
                body.putArray("messages").addObject().put("role", "user").putArray("content");
        for (int i = 0; i < count; i++) {
            content.addObject()
                    .put("type", "image")
                    .putObject("source")
                    .put("type", "base64")
                    .put("media_type", "image/png")
                    .put("data", ToolImages.png(width, height, bytes, i).data());
        }
        return body;
    }

    @Test
    void anthropicRefusesImagesOverTwoThousandPixelsOnceARequestHasMoreThanTwenty() {
        List<String> tooLarge = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            tooLarge.add("messages.0.content." + i + ".image.source.base64.data: the image is 2500x1500 px; with 21"
                    + " images in the request an image may be at most 2000 pixels a side");
        }

        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(anthropicImages(20, 2500, 1500, 1000)));
        assertEquals(tooLarge, WireFormat.ANTHROPIC.problems(anthropicImages(21, 2500, 1500, 1000)));
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(anthropicImages(21, 2000, 2000, 1000)));
        assertEquals(
                List.of("messages: 101 images in one request, more than the 100 a request may have"),
                WireFormat.ANTHROPIC.problems(anthropicImages(101, 100, 100, 1000)));
    }

    @Test
    void anthropicRefusesARequestOverThirtyTwoMegabytes() {
        // Nine PNGs of 3.5 MB: each within the 5 MB of base64 an image may be, together over 32 MB.
        ObjectNode body = anthropicImages(9, 1920, 1080, 3_500_000);

        assertEquals(
                List.of("request_too_large: the request is " + Json.writeBytes(body).length
                        + " bytes, more than the 32 MB a request may be"),
                WireFormat.ANTHROPIC.problems(body));
        assertEquals(List.of(), WireFormat.ANTHROPIC.problems(anthropicImages(6, 1920, 1080, 3_500_000)));
    }

    @Test
    void openAiRefusesMoreThanFiftyMegabytesOfImagesInARequest() {
        ObjectNode body = Json.object().put("model", "gpt-4.1");
        ArrayNode content =
                body.putArray("messages").addObject().put("role", "user").putArray("content");
        for (int i = 0; i < 26; i++) {
            content.addObject()
                    .put("type", "image_url")
                    .putObject("image_url")
                    .put("url", ToolImages.png(1920, 1080, 1_500_000, i).dataUrl());
        }

        assertEquals(
                List.of("The request's images are 52000000 bytes, more than the 50 MB of images a request may carry."),
                WireFormat.OPENAI.problems(body));
    }

    @Test
    void geminiRefusesARequestOverTwentyMegabytes() {
        ObjectNode body = Json.object();
        ArrayNode parts =
                body.putArray("contents").addObject().put("role", "user").putArray("parts");
        for (int i = 0; i < 11; i++) {
            parts.addObject()
                    .putObject("inlineData")
                    .put("mimeType", "image/png")
                    .put("data", ToolImages.png(1920, 1080, 1_500_000, i).data());
        }

        assertEquals(
                List.of("Request payload size exceeds the limit: 20971520 bytes (it is " + Json.writeBytes(body).length
                        + ")."),
                WireFormat.GEMINI.problems("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", body));
    }
}
