package dev.dockhand.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.Json;
import java.io.IOException;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** The scripted model checks every request in its dispatcher, whether or not the test takes it. */
class ScriptedModelTest {
    private static final MediaType JSON = MediaType.get("application/json");
    private final OkHttpClient http = new OkHttpClient();

    /** An Anthropic request whose tool_use is never answered. */
    private static final String BROKEN_ANTHROPIC =
            """
            {"model":"m","max_tokens":16,"messages":[{"role":"user","content":"go"},
             {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}]},
             {"role":"user","content":"and?"}],
             "tools":[{"name":"read_file","description":"Reads a file.","input_schema":{"type":"object"}}]}
            """;

    private Response post(ScriptedModel model, String path, String body) throws IOException {
        return http.newCall(new Request.Builder()
                        .url(model.rootUrl() + path)
                        .post(RequestBody.create(body, JSON))
                        .build())
                .execute();
    }

    @Test
    void refusesAnInvalidRequestAsItsApiWouldAndRecordsIt() throws IOException {
        try (ScriptedModel model = new ScriptedModel()) {
            model.enqueue(Sse.answer("never sent"));

            try (Response response = post(model, "v1/messages", BROKEN_ANTHROPIC)) {
                assertEquals(400, response.code());
                assertEquals(
                        Json.read(
                                """
                        {"type":"error","error":{"type":"invalid_request_error","message":
                          "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after, in order: expected [toolu_1], found []"},
                         "request_id":"req_scripted_model"}
                        """),
                        Json.read(response.body().string()));
            }

            List<String> violations = model.takeViolations();
            assertEquals(1, violations.size(), violations.toString());
            assertTrue(
                    violations.get(0).startsWith("Anthropic messages request to /v1/messages, which"),
                    violations.get(0));
        }
    }

    @Test
    void closeFailsATestThatNeverTookTheInvalidRequest() throws IOException {
        ScriptedModel model = new ScriptedModel();
        post(model, "v1/messages", BROKEN_ANTHROPIC).close();

        AssertionError failure = assertThrows(AssertionError.class, model::close);

        assertTrue(
                failure.getMessage().startsWith("The scripted model received 1 invalid request(s):"),
                failure.getMessage());
    }

    @Test
    void takingARequestFailsOnceAnyRequestWasInvalid() throws IOException {
        try (ScriptedModel model = new ScriptedModel()) {
            post(model, "api/chat", "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":3}]}")
                    .close();

            assertThrows(AssertionError.class, model::takeJson);
            model.takeViolations();
        }
    }

    @Test
    void aPathNoModelApiHasIsAnswered404AndRecorded() throws IOException {
        try (ScriptedModel model = new ScriptedModel()) {
            try (Response response = post(model, "v1/embeddings", "{}")) {
                assertEquals(404, response.code());
            }

            assertEquals(List.of("POST /v1/embeddings: no model API answers at this path"), model.takeViolations());
        }
    }
}
