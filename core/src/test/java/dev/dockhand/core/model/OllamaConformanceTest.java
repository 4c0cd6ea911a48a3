package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.ollama.OllamaClient;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OllamaConformanceTest extends ProviderConformanceTest {
    @Override
    String provider() {
        return "ollama";
    }

    @Override
    ModelClient client(Timeouts timeouts) {
        return new OllamaClient(server.rootUrl(), timeouts);
    }

    @Override
    boolean assignsIds() {
        return true;
    }

    @Override
    String expectedPath() {
        return "/api/chat";
    }

    @Override
    int errorStatus() {
        return 404;
    }

    @Override
    String expectedErrorMessage() {
        return "Ollama at " + server.host() + " answered HTTP 404: model \"llama9\" not found, try pulling it first";
    }

    @Override
    ModelReply expectedMaxTokensReply() {
        return new ModelReply("lorem ipsum", List.of(), FinishReason.LENGTH, Optional.empty());
    }

    @Override
    JsonNode expectedSecondRequest() {
        return Json.read(
                """
                {"model":"test-model","stream":true,
                 "messages":[{"role":"system","content":"SYSTEM"},{"role":"user","content":"go"},
                  {"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_file",
                    "arguments":{"path":"README.md"}}}]},
                  {"role":"tool","tool_name":"read_file","content":"contents of README.md"}]}
                """);
    }

    @Test
    void anErrorLineMidStreamFailsTheReply() {
        server.enqueue(fixture("mid_stream_error"));

        ProviderException failure = assertThrows(
                ProviderException.class,
                () -> client(Timeouts.DEFAULT).stream(
                        new ModelRequest("m", List.of(new Message.User("hi")), List.of()),
                        deltas::add,
                        new Cancellation()));

        assertEquals(
                "Ollama at " + server.host() + " reported an error mid-stream: model runner has unexpectedly"
                        + " stopped",
                failure.getMessage());
        assertEquals(List.of("Hel"), deltas);
    }
}
