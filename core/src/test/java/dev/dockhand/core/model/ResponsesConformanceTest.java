package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.responses.ResponsesClient;
import java.util.List;
import java.util.Optional;

class ResponsesConformanceTest extends ProviderConformanceTest {
    @Override
    String provider() {
        return "openai-responses";
    }

    @Override
    ModelClient client(Timeouts timeouts) {
        return new ResponsesClient(server.baseUrl(), KEY, timeouts);
    }

    @Override
    boolean assignsIds() {
        return false;
    }

    @Override
    String expectedPath() {
        return "/v1/responses";
    }

    @Override
    int errorStatus() {
        return 401;
    }

    @Override
    String expectedErrorMessage() {
        return "OpenAI Responses at " + server.host() + " answered HTTP 401: Incorrect API key provided: sk-test."
                + " You can find your API key at https://platform.openai.com/account/api-keys.";
    }

    @Override
    ModelReply expectedMaxTokensReply() {
        return new ModelReply(
                "",
                List.of(new ToolCall("call_big", "write_file", "{\"path\":\"big.txt\",\"content\":\"lorem ipsum")),
                FinishReason.LENGTH,
                Optional.empty());
    }

    @Override
    JsonNode expectedSecondRequest() {
        return Json.read(
                """
                {"model":"test-model","instructions":"SYSTEM",
                 "input":[{"type":"message","role":"user","content":"go"},
                  {"type":"function_call","call_id":"call_1","name":"read_file",
                   "arguments":"{\\"path\\":\\"README.md\\"}"},
                  {"type":"function_call_output","call_id":"call_1","output":"contents of README.md"}],
                 "parallel_tool_calls":true,"stream":true,"store":false,"include":["reasoning.encrypted_content"]}
                """);
    }
}
