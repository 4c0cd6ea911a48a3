package dev.dockhand.core.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.openai.OpenAiClient;
import java.util.List;
import java.util.Optional;

class OpenAiConformanceTest extends ProviderConformanceTest {
    @Override
    String provider() {
        return "openai";
    }

    @Override
    ModelClient client(Timeouts timeouts) {
        return new OpenAiClient(server.baseUrl(), KEY, timeouts);
    }

    @Override
    boolean assignsIds() {
        return false;
    }

    @Override
    String expectedPath() {
        return "/v1/chat/completions";
    }

    @Override
    int errorStatus() {
        return 401;
    }

    @Override
    String expectedErrorMessage() {
        return "The OpenAI-compatible server at " + server.host() + " answered HTTP 401: Incorrect API key provided:"
                + " sk-test. You can find your API key at https://platform.openai.com/account/api-keys.";
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
                {"model":"test-model","stream":true,"stream_options":{"include_usage":true},
                 "messages":[{"role":"system","content":"SYSTEM"},{"role":"user","content":"go"},
                  {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
                    "function":{"name":"read_file","arguments":"{\\"path\\":\\"README.md\\"}"}}]},
                  {"role":"tool","tool_call_id":"call_1","content":"contents of README.md"}]}
                """);
    }
}
