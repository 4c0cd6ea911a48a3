package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.model.gemini.GeminiClient;
import dev.dockhand.core.tool.Schema;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeminiConformanceTest extends ProviderConformanceTest {
    @Override
    String provider() {
        return "gemini";
    }

    @Override
    ModelClient client(Timeouts timeouts) {
        return new GeminiClient(server.rootUrl(), KEY, timeouts);
    }

    @Override
    boolean assignsIds() {
        return true;
    }

    @Override
    String expectedPath() {
        return "/v1beta/models/test-model:streamGenerateContent?alt=sse";
    }

    @Override
    int errorStatus() {
        return 400;
    }

    @Override
    String expectedErrorMessage() {
        return "Gemini at " + server.host() + " answered HTTP 400: API key not valid. Please pass a valid API key.";
    }

    @Override
    ModelReply expectedMaxTokensReply() {
        return new ModelReply("lorem ipsum", List.of(), FinishReason.LENGTH, Optional.empty());
    }

    @Override
    JsonNode expectedSecondRequest() {
        return Json.read(
                """
                {"contents":[{"role":"user","parts":[{"text":"go"}]},
                  {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"README.md"}}}]},
                  {"role":"user","parts":[{"functionResponse":{"name":"read_file",
                    "response":{"output":"contents of README.md"}}}]}],
                 "systemInstruction":{"parts":[{"text":"SYSTEM"}]}}
                """);
    }

    @Test
    void reportsASafetyStop() throws Exception {
        server.enqueue(fixture("refusal"));

        ModelReply reply = client(Timeouts.DEFAULT).stream(
                new ModelRequest("m", List.of(new Message.User("hi")), List.of()), deltas::add, new Cancellation());

        assertEquals(
                new ModelReply("I can", List.of(), FinishReason.CONTENT_FILTER, Optional.of(new TokenUsage(10, 5))),
                reply);
    }

    @Test
    void sendsTheKeyInAHeaderNotTheUrl() throws Exception {
        server.enqueue(fixture("text"));

        client(Timeouts.DEFAULT).stream(
                new ModelRequest("test-model", List.of(new Message.User("hi")), List.of()),
                deltas::add,
                new Cancellation());

        server.takeJson();
        assertEquals(KEY, server.lastHeader("x-goog-api-key"));
        assertEquals(false, server.lastPath().contains(KEY));
    }

    @Test
    void dropsSchemaKeywordsGeminiRejects() {
        JsonNode schema = Schema.object()
                .required("path", Schema.string("A path."))
                .optional("tags", Schema.array("Tags.", Schema.string("A tag.")))
                .build();

        assertEquals(
                Json.read(
                        """
                {"type":"object","properties":{"path":{"type":"string","description":"A path."},
                 "tags":{"type":"array","description":"Tags.","items":{"type":"string","description":"A tag."}}},
                 "required":["path"]}
                """),
                dev.dockhand.core.model.gemini.GeminiSchemasAccess.convert(schema));
    }
}
