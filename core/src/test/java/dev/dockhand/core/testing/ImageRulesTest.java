package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
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

    @Test
    void anthropicRefusesAnImageInAnAssistantTurnAndAnUnknownMediaType() {
        JsonNode body = json("{'model':'m','max_tokens':10,'messages':[{'role':'user','content':'look'},"
                + "{'role':'assistant','content':[{'type':'image','source':{'type':'base64',"
                + "'media_type':'image/png','data':'${PNG}'}},{'type':'tool_use','id':'c1','name':'shot','input':{}}]},"
                + "{'role':'user','content':[{'type':'tool_result','tool_use_id':'c1','content':["
                + "{'type':'image','source':{'type':'base64','media_type':'image/svg+xml','data':'PHN2Zy8+'}}]}]}]}");

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
                + "'media_type':'image/png','data':'${PNG}'}}]}]}]}");

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
}
