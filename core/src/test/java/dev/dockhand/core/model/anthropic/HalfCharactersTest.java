package dev.dockhand.core.model.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.tool.Tool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Half a character never reaches the Messages API: a tool result cut inside an emoji, and a call whose arguments escape
 * an emoji's first half alone, go back with U+FFFD in its place. Sent as they are, the API answers 400 "no low
 * surrogate in string", and since both stay in the history, so does every later request (anthropics/claude-code#3277).
 */
class HalfCharactersTest {
    /** A surrogate escape in JSON text, and the low one after it if there is one. */
    private static final Pattern SURROGATE_ESCAPE =
            Pattern.compile("\\\\u([dD][89abAB][0-9a-fA-F]{2})(\\\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\\\u[dD][c-fC-F]");

    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aResultAndArgumentsHoldingHalfAnEmojiGoBackWithTheReplacementCharacter() throws Exception {
        // Hand-written, in the shape of tool_call.sse: the model writes the escape of U+1F600's first half alone.
        server.enqueue(AnthropicLoops.sse(String.join(
                "\n",
                "event: message_start",
                "data: {\"type\": \"message_start\", \"message\": {\"id\": \"msg_1\", \"type\": \"message\", \"role\":"
                        + " \"assistant\", \"content\": [], \"model\": \"claude-sonnet-4-5\", \"stop_reason\": null,"
                        + " \"stop_sequence\": null, \"usage\": {\"input_tokens\": 10, \"output_tokens\": 1}}}",
                "",
                "event: content_block_start",
                "data: {\"type\": \"content_block_start\", \"index\": 0, \"content_block\": {\"type\": \"tool_use\","
                        + " \"id\": \"toolu_1\", \"name\": \"read_file\", \"input\": {}}}",
                "",
                "event: content_block_delta",
                "data: {\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\": \"input_json_delta\","
                        + " \"partial_json\": \"{\\\"path\\\":\\\"smile\\\\ud83d.txt\\\"}\"}}",
                "",
                "event: content_block_stop",
                "data: {\"type\": \"content_block_stop\", \"index\": 0}",
                "",
                "event: message_delta",
                "data: {\"type\": \"message_delta\", \"delta\": {\"stop_reason\": \"tool_use\", \"stop_sequence\":"
                        + " null}, \"usage\": {\"output_tokens\": 5}}",
                "",
                "event: message_stop",
                "data: {\"type\": \"message_stop\"}",
                "",
                "")));
        server.enqueue(AnthropicLoops.fixture("text"));
        // What a cut by char count leaves: the emoji's first half at the end of the result.
        Tool<?> cutting = new AnthropicLoops.Answering("read_file", arguments -> "smile \uD83D\uDE00 and cut \uD83D");
        AgentLoop loop = AnthropicLoops.loop(server, workspace, true, 10, "SYSTEM", List.of(cutting));

        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("read it", new Cancellation()).outcome());

        server.takeRaw();
        String second = server.takeRaw().getBody().clone().readString(StandardCharsets.UTF_8);
        assertEquals(List.of("\\ud83d\\ude00"), surrogateEscapes(second));
        assertEquals(
                "[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"read_file\",\"input\":{\"path\":\"smile\uFFFD.txt\"}}]",
                Json.write(Json.read(second).at("/messages/1/content")));
        assertEquals(
                "smile \uD83D\uDE00 and cut \uFFFD",
                Json.read(second).at("/messages/2/content/0/content").asText());
    }

    /** Every surrogate escape in {@code json}, a pair as one, as written (lower-cased). */
    private static List<String> surrogateEscapes(String json) {
        Matcher matcher = SURROGATE_ESCAPE.matcher(json);
        List<String> found = new java.util.ArrayList<>();
        while (matcher.find()) {
            found.add(matcher.group().toLowerCase(java.util.Locale.ROOT));
        }
        return found;
    }
}
