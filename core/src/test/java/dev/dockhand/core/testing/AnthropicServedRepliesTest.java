package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import java.io.IOException;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * The scripted Messages API remembers the replies it streamed and refuses a latest assistant message whose thinking
 * blocks are not where the reply had them, as the real one does.
 */
class AnthropicServedRepliesTest {
    private static final MediaType JSON = MediaType.get("application/json");
    private static final String FIRST = "{\"type\":\"thinking\",\"thinking\":\"The module list is in the build file;"
            + " read it first.\",\"signature\":\"T3B1c0ludGVybGVhdmVkVGhpbmtpbmdPbmVGb3JEb2NraGFuZC9maXJzdCtibG9jaz0=\"}";
    private static final String SECOND = "{\"type\":\"thinking\",\"thinking\":\"The readme may name modules the build"
            + " file leaves out.\",\"signature\":\"T3B1c0ludGVybGVhdmVkVGhpbmtpbmdUd29Gb3JEb2NraGFuZC9zZWNvbmQrYmxvY2s=\"}";
    private static final String TEXT = "{\"type\":\"text\",\"text\":\"I'll read the build file and the readme.\"}";
    private static final String POM =
            "{\"type\":\"tool_use\",\"id\":\"toolu_01ReadPomInterleavedK7\",\"name\":\"read_file\",\"input\":{}}";
    private static final String README =
            "{\"type\":\"tool_use\",\"id\":\"toolu_01ReadReadmeInterleavedM2\",\"name\":\"read_file\",\"input\":{}}";

    private final OkHttpClient http = new OkHttpClient();

    /** The request after the interleaved fixture's tool round, its assistant message made of {@code blocks}. */
    private static String next(String... blocks) {
        ObjectNode body = Json.object().put("model", "m").put("max_tokens", 18_000);
        body.putObject("thinking").put("type", "enabled").put("budget_tokens", 10_000);
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "user").put("content", "go");
        ArrayNode assistant = messages.addObject().put("role", "assistant").putArray("content");
        for (String block : blocks) {
            assistant.add(Json.read(block));
        }
        ArrayNode results = messages.addObject().put("role", "user").putArray("content");
        results.addObject()
                .put("type", "tool_result")
                .put("tool_use_id", "toolu_01ReadPomInterleavedK7")
                .put("content", "pom");
        results.addObject()
                .put("type", "tool_result")
                .put("tool_use_id", "toolu_01ReadReadmeInterleavedM2")
                .put("content", "readme");
        body.putArray("tools")
                .addObject()
                .put("name", "read_file")
                .put("description", "Reads a file.")
                .putObject("input_schema")
                .put("type", "object");
        return Json.write(body);
    }

    private int post(ScriptedModel model, String body) throws IOException {
        try (Response response = http.newCall(new Request.Builder()
                        .url(model.rootUrl() + "v1/messages")
                        .post(RequestBody.create(body, JSON))
                        .build())
                .execute()) {
            return response.code();
        }
    }

    @Test
    void refusesInterleavedThinkingMovedToTheFrontAndTakesItInItsPlaces() throws IOException {
        try (ScriptedModel model = new ScriptedModel()) {
            model.enqueue(ProviderFixtures.stream("anthropic", "opus46_interleaved_thinking_tools"));
            model.enqueue(Sse.answer("Read."), Sse.answer("Read."));
            assertEquals(
                    200,
                    post(
                            model,
                            "{\"model\":\"m\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\","
                                    + "\"content\":\"go\"}]}"));

            assertEquals(400, post(model, next(FIRST, SECOND, TEXT, POM, README)));
            assertEquals(400, post(model, next(FIRST, TEXT, POM, README)));
            assertEquals(200, post(model, next(FIRST, TEXT, POM, SECOND, README)));

            List<String> violations = model.takeViolations();
            assertEquals(2, violations.size(), violations.toString());
            assertEquals(
                    List.of(
                            "messages.1.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant"
                                    + " message cannot be modified. These blocks must remain as they were in the"
                                    + " original response.",
                            "messages.1.content.3: `thinking` or `redacted_thinking` blocks in the latest assistant"
                                    + " message cannot be modified. These blocks must remain as they were in the"
                                    + " original response."),
                    violations.stream().map(AnthropicServedRepliesTest::problem).toList());
        }
    }

    /** The one problem line of a recorded violation. */
    private static String problem(String violation) {
        return violation.lines().skip(1).findFirst().orElseThrow().trim();
    }

    @Test
    void readsAStreamIntoItsBlocks() {
        List<JsonNode> content = AnthropicServedReplies.content(
                ProviderFixtures.text("/providers/anthropic/opus46_interleaved_thinking_tools.sse"));

        assertEquals(
                List.of(Json.read(FIRST), Json.read(TEXT), Json.read(POM), Json.read(SECOND), Json.read(README)),
                content);
    }
}
