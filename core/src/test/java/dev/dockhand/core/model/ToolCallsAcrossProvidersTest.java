package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.anthropic.AnthropicClient;
import dev.dockhand.core.model.gemini.GeminiClient;
import dev.dockhand.core.model.openai.OpenAiClient;
import dev.dockhand.core.model.responses.ResponsesClient;
import dev.dockhand.core.testing.ProviderFixtures;
import dev.dockhand.core.testing.ScriptedModel;
import dev.dockhand.core.testing.Sse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tool calls made on one provider and sent back to it, or to another after a switch: the scripted model checks each
 * request against its API's rules, so a name or an id the real API refuses fails the test with that API's 400.
 */
class ToolCallsAcrossProvidersTest {
    private static final String KEY = "sk-test";

    @TempDir
    Path workspace;

    private final ScriptedModel server = new ScriptedModel();

    @AfterEach
    void stop() {
        server.close();
    }

    private AgentLoop loop(ModelClient client, String model) {
        return ReadFileLoop.of(workspace, client, model);
    }

    private OpenAiClient openAi() {
        return new OpenAiClient(server.baseUrl(), KEY, Timeouts.DEFAULT);
    }

    /**
     * gpt-oss on vLLM names a call {@code repo_browser.open_file}: the call is answered with an error quoting that
     * name, and goes back under the placeholder, which OpenAI's pattern takes; the conversation keeps the name.
     */
    private AgentLoop gptOssSessionWithADottedName() throws Exception {
        server.enqueue(ProviderFixtures.stream("openai", "vllm_gptoss_dotted_tool_name"), Sse.answer("It says hello."));
        AgentLoop loop = loop(openAi(), "openai/gpt-oss-20b");
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("read the readme", new Cancellation()).outcome());
        return loop;
    }

    @Test
    void aCallNamedOutsideEveryApisPatternIsAnsweredQuotingItsNameAndGoesBackAsThePlaceholder() throws Exception {
        AgentLoop loop = gptOssSessionWithADottedName();

        List<Message> messages = loop.conversation().messages();
        String id = "chatcmpl-tool-5e1f0a2b3c4d";
        assertEquals(
                List.of(new ToolCall(id, "repo_browser.open_file", "{\"path\":\"README.md\"}")),
                ((Message.Assistant) messages.get(2)).toolCalls());
        assertEquals(
                new Message.ToolResult(
                        id,
                        "repo_browser.open_file",
                        "Your tool call named `repo_browser.open_file` was not run: no tool has that name, and a tool"
                                + " name has only letters, digits, _ and - (the call shows as invalid_tool_name in the"
                                + " history). Call again with the name of one of these tools: read_file.",
                        true),
                messages.get(3));
        server.takeJson();
        JsonNode second = server.takeJson();
        assertEquals(
                Json.read("[{\"id\":\"" + id + "\",\"type\":\"function\",\"function\":{\"name\":\"invalid_tool_name\","
                        + "\"arguments\":\"{\\\"path\\\":\\\"README.md\\\"}\"}}]"),
                second.at("/messages/2/tool_calls"));
        assertEquals(id, second.at("/messages/3/tool_call_id").asText());
    }

    @Test
    void theSameHistoryGoesToEveryOtherApiUnderThePlaceholder() throws Exception {
        AgentLoop loop = gptOssSessionWithADottedName();
        server.takeJson();
        server.takeJson();
        String id = "chatcmpl-tool-5e1f0a2b3c4d";

        loop.switchModel(new AnthropicClient(server.rootUrl(), KEY, 4096, Timeouts.DEFAULT), "claude-sonnet-4-6");
        server.enqueue(ProviderFixtures.stream("anthropic", "sonnet45_redacted_thinking"));
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("and now?", new Cancellation()).outcome());
        JsonNode anthropic = server.takeJson();
        assertEquals(
                Json.read("{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"invalid_tool_name\","
                        + "\"input\":{\"path\":\"README.md\"}}"),
                anthropic.at("/messages/1/content/0"));

        loop.switchModel(new ResponsesClient(server.baseUrl(), KEY, Timeouts.DEFAULT), "gpt-5");
        server.enqueue(ProviderFixtures.stream("openai-responses", "text"));
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("and then?", new Cancellation()).outcome());
        List<JsonNode> calls = new ArrayList<>();
        server.takeJson().path("input").forEach(item -> {
            if (item.path("type").asText().equals("function_call")) {
                calls.add(item);
            }
        });
        assertEquals(
                List.of(Json.read("{\"type\":\"function_call\",\"call_id\":\"" + id + "\",\"name\":"
                        + "\"invalid_tool_name\",\"arguments\":\"{\\\"path\\\":\\\"README.md\\\"}\"}")),
                calls);

        loop.switchModel(new GeminiClient(server.rootUrl(), KEY, Timeouts.DEFAULT), "gemini-2.5-flash");
        server.enqueue(ProviderFixtures.stream("gemini", "text"));
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("last?", new Cancellation()).outcome());
        JsonNode gemini = server.takeJson();
        assertEquals(
                Json.read("{\"functionCall\":{\"name\":\"invalid_tool_name\",\"args\":{\"path\":\"README.md\"}}}"),
                gemini.at("/contents/1/parts/0"));
        assertEquals(
                "invalid_tool_name",
                gemini.at("/contents/2/parts/0/functionResponse/name").asText());
    }

    /**
     * Kimi K2 on an OpenAI-compatible server repeats {@code functions.read_file:0} in every reply. Kimi gets its
     * first id back as it made it; after {@code /model} to Claude every id goes out in Anthropic's pattern, unique in
     * the request, each result with its own call's.
     */
    @Test
    void kimiIdsGoBackToKimiAndInAnthropicsPatternAfterASwitch() throws Exception {
        server.enqueue(
                ProviderFixtures.stream("openai", "kimi_k2_tool_call_1"),
                Sse.answer("README read."),
                ProviderFixtures.stream("openai", "kimi_k2_tool_call_2"),
                Sse.answer("NOTES read."));
        AgentLoop loop = loop(openAi(), "moonshotai/Kimi-K2-Instruct");
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("read README", new Cancellation()).outcome());
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("read NOTES", new Cancellation()).outcome());
        server.takeJson();
        server.takeJson();
        server.takeJson();
        String kimi = "functions.read_file:0";

        assertEquals(
                List.of(kimi, kimi, "call_f9cc2c7822d54220cf887543", "call_f9cc2c7822d54220cf887543"),
                ids(server.takeJson().path("messages"), "tool_calls", "id", "tool_call_id"));

        loop.switchModel(new AnthropicClient(server.rootUrl(), KEY, 4096, Timeouts.DEFAULT), "claude-sonnet-4-6");
        server.enqueue(ProviderFixtures.stream("anthropic", "text"));
        assertEquals(
                TurnResult.Outcome.ANSWERED,
                loop.run("summarise", new Cancellation()).outcome());
        assertEquals(
                List.of(
                        "call_f9cc2c7822d54220cf887543",
                        "call_f9cc2c7822d54220cf887543",
                        "call_fcba0e59b7c609b6b21f8274",
                        "call_fcba0e59b7c609b6b21f8274"),
                anthropicIds(server.takeJson().path("messages")));
        assertEquals(
                List.of(kimi, kimi),
                loop.conversation().messages().stream()
                        .filter(message -> message instanceof Message.Assistant assistant && assistant.hasToolCalls())
                        .map(message ->
                                ((Message.Assistant) message).toolCalls().get(0).id())
                        .toList());
    }

    /** The calls' and results' ids of a chat-completions history, in order. */
    private static List<String> ids(JsonNode messages, String callsField, String idField, String resultField) {
        List<String> ids = new ArrayList<>();
        for (JsonNode message : messages) {
            message.path(callsField).forEach(call -> ids.add(call.path(idField).asText()));
            if (message.has(resultField)) {
                ids.add(message.path(resultField).asText());
            }
        }
        return ids;
    }

    /** The tool_use and tool_result ids of a Messages API history, in order. */
    private static List<String> anthropicIds(JsonNode messages) {
        List<String> ids = new ArrayList<>();
        for (JsonNode message : messages) {
            for (JsonNode block : message.path("content")) {
                switch (block.path("type").asText()) {
                    case "tool_use" -> ids.add(block.path("id").asText());
                    case "tool_result" -> ids.add(block.path("tool_use_id").asText());
                    default -> {
                        // Text and thinking carry no ids.
                    }
                }
            }
        }
        return ids;
    }
}
