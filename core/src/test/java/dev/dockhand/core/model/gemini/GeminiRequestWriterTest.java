package dev.dockhand.core.model.gemini;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ProviderState;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.testing.WireFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the Gemini request writer makes of history Gemini did not sign, and of the reasoning effort. Each request is
 * also checked against the scripted Gemini's rules for its model, so "accepted" means what the real API accepts.
 */
class GeminiRequestWriterTest {
    private static final ProviderState ANTHROPIC_STATE =
            new ProviderState("anthropic", "{\"thinking\":[{\"signature\":\"c2lnLWFudGhyb3BpYw==\"}]}");

    /** A turn with two parallel calls, then their results, made by {@code state}'s provider. */
    private static List<Message> history(ProviderState state) {
        return List.of(
                new Message.System("SYSTEM"),
                new Message.User("go"),
                new Message.Assistant(
                        "Reading both.",
                        List.of(
                                new ToolCall("toolu_1", "read_file", "{\"path\":\"a\"}"),
                                new ToolCall("toolu_2", "read_file", "{\"path\":\"b\"}")),
                        "I should read both files.",
                        state),
                new Message.ToolResult("toolu_1", "read_file", "A", false),
                new Message.ToolResult("toolu_2", "read_file", "B", false));
    }

    private static String contents(String firstSignature) {
        String signature = firstSignature == null ? "" : ",\"thoughtSignature\":\"" + firstSignature + "\"";
        return """
                [{"role":"user","parts":[{"text":"go"}]},
                 {"role":"model","parts":[{"text":"Reading both."},
                   {"functionCall":{"name":"read_file","args":{"path":"a"}}%s},
                   {"functionCall":{"name":"read_file","args":{"path":"b"}}}]},
                 {"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"A"}}},
                   {"functionResponse":{"name":"read_file","response":{"output":"B"}}}]}]
                """
                .formatted(signature);
    }

    private static ObjectNode write(String model, List<Message> messages) {
        ObjectNode body = GeminiRequestWriter.write(new ModelRequest(model, messages, List.of()));
        assertEquals(
                List.of(),
                WireFormat.GEMINI.problems("/v1beta/models/" + model + ":streamGenerateContent?alt=sse", body));
        return body;
    }

    @Test
    void callsFromAnotherProviderGetThePlaceholderSignatureOnGeminiThree() {
        for (ProviderState state : List.of(ANTHROPIC_STATE, ProviderState.NONE)) {
            ObjectNode body = write("gemini-3-pro-preview", history(state));

            assertEquals(Json.read(contents("skip_thought_signature_validator")), body.get("contents"), state.wire());
        }
    }

    /** The placeholder is what makes that request acceptable: without it Gemini 3 refuses the current turn's call. */
    @Test
    void withoutThePlaceholderGeminiThreeRefusesCallsFromAnotherProvider() {
        ObjectNode body = write("gemini-3-pro-preview", history(ANTHROPIC_STATE));
        ((ObjectNode) body.at("/contents/1/parts/1")).remove("thoughtSignature");

        assertEquals(
                List.of("Unable to submit request because function call `read_file` in the 1. content block is missing"
                        + " a `thought_signature`."),
                WireFormat.GEMINI.problems("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse", body));
    }

    @Test
    void callsFromAnotherProviderGoToGeminiTwoPointFiveUnsigned() {
        for (ProviderState state : List.of(ANTHROPIC_STATE, ProviderState.NONE)) {
            ObjectNode body = write("gemini-2.5-pro", history(state));

            assertEquals(Json.read(contents(null)), body.get("contents"), state.wire());
        }
    }

    /**
     * A state that no longer describes its message (here the text differs) is not replayed: the plain layout goes,
     * and on Gemini 3 the first call gets the placeholder in place of the signature that could not be matched.
     */
    @Test
    void aGeminiStateThatNoLongerFitsItsMessageIsNotReplayed() {
        ProviderState stale = new ProviderState(
                "gemini",
                "{\"model\":\"gemini-3-flash-preview\","
                        + "\"parts\":[{\"text\":\"Something else.\"},"
                        + "{\"functionCall\":0,\"thoughtSignature\":\"U0lH\"},"
                        + "{\"functionCall\":1}]}");

        ObjectNode body = write("gemini-3-flash-preview", history(stale));

        assertEquals(Json.read(contents("skip_thought_signature_validator")), body.get("contents"));
    }

    @Test
    void signedThoughtPartsGoBackAsTheyCame() {
        ProviderState gemini = new ProviderState(
                "gemini",
                "{\"model\":\"gemini-3-pro-preview\","
                        + "\"parts\":[{\"thought\":true,\"text\":\"Plan.\",\"thoughtSignature\":\"VEg=\"},"
                        + "{\"text\":\"Reading both.\"},{\"functionCall\":0,\"thoughtSignature\":\"U0lH\"},"
                        + "{\"functionCall\":1}]}");

        ObjectNode body = write("gemini-3-pro-preview", history(gemini));

        assertEquals(
                Json.read(
                        """
                {"role":"model","parts":[{"thought":true,"text":"Plan.","thoughtSignature":"VEg="},
                  {"text":"Reading both."},
                  {"functionCall":{"name":"read_file","args":{"path":"a"}},"thoughtSignature":"U0lH"},
                  {"functionCall":{"name":"read_file","args":{"path":"b"}}}]}
                """),
                body.at("/contents/1"));
    }

    /**
     * A signature is one model's: after a switch from Gemini 2.5 to Gemini 3, the calls go as if another provider had
     * made them (the placeholder on the first), and the 2.5 signature is not sent.
     */
    @Test
    void signaturesOfAnotherGeminiModelAreNotReplayed() {
        ProviderState fromTwoPointFive = new ProviderState(
                "gemini",
                "{\"model\":\"gemini-2.5-pro\",\"parts\":[{\"text\":\"Reading both.\"},"
                        + "{\"functionCall\":0,\"thoughtSignature\":\"U0lH\"},{\"functionCall\":1}]}");

        assertEquals(
                Json.read(contents("skip_thought_signature_validator")),
                write("gemini-3-pro-preview", history(fromTwoPointFive)).get("contents"));
        assertEquals(
                Json.read(contents("U0lH")),
                write("gemini-2.5-pro", history(fromTwoPointFive)).get("contents"));
    }

    /**
     * The effort becomes Gemini 3's thinkingLevel (Gemini 3 Pro has no medium: its default, high) or Gemini 2.5's
     * thinkingBudget (the 1K/8K/24K Google's OpenAI-compatible endpoint uses); thinking models also get
     * includeThoughts, with no effort too; models that do not think get no thinkingConfig at all.
     */
    @Test
    void theEffortBecomesEachGenerationsThinkingControl() {
        Map<String, JsonNode> expected = new LinkedHashMap<>();
        expected.put("gemini-3-pro-preview none", config("{\"includeThoughts\":true}"));
        expected.put("gemini-3-pro-preview LOW", config("{\"includeThoughts\":true,\"thinkingLevel\":\"low\"}"));
        expected.put("gemini-3-pro-preview MEDIUM", config("{\"includeThoughts\":true,\"thinkingLevel\":\"high\"}"));
        expected.put("gemini-3-pro-preview HIGH", config("{\"includeThoughts\":true,\"thinkingLevel\":\"high\"}"));
        expected.put(
                "gemini-3-flash-preview MEDIUM", config("{\"includeThoughts\":true,\"thinkingLevel\":\"medium\"}"));
        expected.put(
                "gemini-3.1-pro-preview MEDIUM", config("{\"includeThoughts\":true,\"thinkingLevel\":\"medium\"}"));
        expected.put("gemini-2.5-flash none", config("{\"includeThoughts\":true}"));
        expected.put("gemini-2.5-flash LOW", config("{\"includeThoughts\":true,\"thinkingBudget\":1024}"));
        expected.put("gemini-2.5-pro MEDIUM", config("{\"includeThoughts\":true,\"thinkingBudget\":8192}"));
        expected.put("models/gemini-2.5-pro HIGH", config("{\"includeThoughts\":true,\"thinkingBudget\":24576}"));
        expected.put("gemini-2.0-flash HIGH", null);
        expected.put("gemini-2.5-flash-preview-tts HIGH", null);
        expected.put("test-model HIGH", null);

        Map<String, JsonNode> actual = new LinkedHashMap<>();
        for (String key : expected.keySet()) {
            String[] parts = key.split(" ");
            Optional<ReasoningEffort> effort =
                    parts[1].equals("none") ? Optional.empty() : Optional.of(ReasoningEffort.valueOf(parts[1]));
            ObjectNode body = GeminiRequestWriter.write(
                    new ModelRequest(parts[0], List.of(new Message.User("hi")), List.of(), effort));
            actual.put(key, body.get("generationConfig"));
            String model = parts[0].replace("models/", "");
            assertEquals(
                    List.of(),
                    WireFormat.GEMINI.problems("/v1beta/models/" + model + ":streamGenerateContent?alt=sse", body),
                    key);
        }
        assertEquals(expected, actual);
    }

    private static JsonNode config(String thinkingConfig) {
        return Json.read("{\"thinkingConfig\":" + thinkingConfig + "}");
    }

    /** An answer with no signature of Gemini's and no calls goes back as plain text, signed nowhere. */
    @Test
    void unsignedTextGoesBackPlain() {
        List<Message> messages = new ArrayList<>(List.of(
                new Message.User("hi"),
                new Message.Assistant("Hello.", List.of(), "thinking", ANTHROPIC_STATE),
                new Message.User("bye")));

        ObjectNode body = write("gemini-3-pro-preview", messages);

        assertEquals(
                Json.read(
                        """
                [{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"Hello."}]},
                 {"role":"user","parts":[{"text":"bye"}]}]
                """),
                body.get("contents"));
    }
}
