package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.toolCall;
import static dev.dockhand.core.testing.Sse.toolFragment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.session.Sandboxes;
import dev.dockhand.core.testing.ScriptedModel;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import okhttp3.mockwebserver.MockResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

public class DockhandCommandTest extends CliTest {
    private ScriptedModel model;
    private StringWriter out;
    private StringWriter err;
    private Map<String, String> variables;
    private Path workspace;

    @BeforeEach
    void setUp() throws Exception {
        model = cli.model;
        out = cli.out;
        err = cli.err;
        variables = cli.variables;
        workspace = cli.workspace;
    }

    private int run(InputStream stdin, boolean stdinIsTerminal, String... args) {
        return cli.run(stdin, stdinIsTerminal, args);
    }

    private int run(String... args) {
        return cli.run(args);
    }

    private List<String> errLines() {
        return cli.errLines();
    }

    private static final String UNCONFINED =
            "dockhand: --sandbox none: commands run directly on this machine," + " unconfined.";

    @Test
    void answersAPromptOnStdout() {
        model.enqueue(answer("Hello from the model."));

        int exit = run("-p", "say hello");

        assertEquals(ExitCodes.OK, exit);
        assertEquals("Hello from the model.\n", out.toString());
        assertEquals(List.of(UNCONFINED), errLines());
        JsonNode request = model.takeRequest();
        assertEquals("say hello", request.get("messages").get(1).get("content").asText());
        assertEquals("test-model", request.get("model").asText());
    }

    @Test
    void aLastReplyWithNeitherTextNorACallIsNoAnswerSaidOnStderrAndExitsOne() {
        model.enqueue(reply(finish("stop"), done()));

        int exit = run("-p", "say hello");

        assertEquals(ExitCodes.PROVIDER_FAILURE, exit);
        assertEquals("", out.toString());
        assertEquals(
                List.of(
                        UNCONFINED,
                        "dockhand: the model's last reply had neither text nor a tool call, so there is no answer;"
                                + " run it again, or try another model."),
                errLines());
    }

    // gemini-cli coreToolScheduler.test.ts: "should error when tool requires confirmation in non-interactive mode"
    @Test
    void anEmptyReplyAfterARefusedCallExitsForTheRefusal() {
        model.enqueue(calls(toolCall("w1", "write_file", "{\"path\":\"x.txt\",\"content\":\"x\"}")), reply(done()));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, run("-p", "write x"));

        assertEquals(
                "dockhand: the model gave no answer (its last reply was empty); 1 tool call needed approval and"
                        + " nobody could give it; rerun with --yolo (or --approval-mode auto-edit for edits, or"
                        + " --allowed-tools with the tools' names) to allow such calls.",
                errLines().get(errLines().size() - 1));
    }

    @Test
    void aCallWithoutANameIsReportedAndAnsweredSoTheModelCanCarryOn() {
        model.enqueue(
                calls(toolFragment(0, "c1", null, "{\"path\":\"notes.txt\"}")), answer("Sorry, I meant read_file."));

        assertEquals(ExitCodes.OK, run("-p", "read the notes"));

        assertEquals("Sorry, I meant read_file.\n", out.toString());
        assertTrue(
                errLines().get(1).startsWith("✗ missing_tool_name · Your tool call had no tool name, so nothing ran"),
                err.toString());
        model.takeRequest();
        String result = lastToolResult(model.takeRequest());
        assertTrue(
                result.startsWith("Your tool call had no tool name, so nothing ran (its arguments were"
                        + " `{\"path\":\"notes.txt\"}`). Call again with the name of one of these tools: "),
                result);
    }

    @Test
    void runsAMultiRoundToolConversationInYoloMode() throws Exception {
        model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"notes/todo.txt\",\"content\":\"ship it\\n\"}")),
                calls(
                        toolCall("r1", "read_file", "{\"path\":\"notes/todo.txt\"}"),
                        toolCall("s1", "run_shell_command", "{\"command\":\"wc -l < notes/todo.txt\"}")),
                answer("Wrote and checked the file."));

        int exit = run("--yolo", "-p", "make a todo file");

        assertEquals(ExitCodes.OK, exit);
        assertEquals("Wrote and checked the file.\n", out.toString());
        assertEquals("ship it\n", Files.readString(workspace.resolve("notes/todo.txt")));
        List<String> lines = errLines();
        assertEquals(4, lines.size(), err.toString());
        assertTrue(
                lines.get(1).startsWith("✓ write_file notes/todo.txt · Created notes/todo.txt (1 line). ("),
                lines.get(1));
        assertTrue(lines.get(2).startsWith("✓ read_file notes/todo.txt · read 1 line ("), lines.get(2));
        assertTrue(
                lines.get(3).startsWith("✓ run_shell_command wc -l < notes/todo.txt · exit 0, 1 lines ("),
                lines.get(3));
        model.takeRequest();
        model.takeRequest();
        JsonNode last = model.takeRequest().get("messages");
        assertEquals("     1\tship it\n", last.get(5).get("content").asText());
        assertEquals("Exit code: 0\nOutput:\n1", last.get(6).get("content").asText());
    }

    @Test
    void editReadBackGrepAndShellThroughTheAgentLoop() throws Exception {
        Files.writeString(
                workspace.resolve("Greeter.java"), "class Greeter {\n    String greet() { return \"hi\"; }\n}\n");
        model.enqueue(
                calls(toolCall(
                        "e1",
                        "edit",
                        "{\"path\":\"Greeter.java\",\"old_string\":\"return \\\"hi\\\";\","
                                + "\"new_string\":\"return \\\"hello\\\";\"}")),
                calls(toolCall("r1", "read_file", "{\"path\":\"Greeter.java\"}")),
                calls(toolCall("g1", "grep", "{\"pattern\":\"hello\"}")),
                calls(toolCall("s1", "run_shell_command", "{\"command\":\"grep -c hello Greeter.java\"}")),
                answer("Changed the greeting."));

        assertEquals(ExitCodes.OK, run("--yolo", "-p", "say hello instead"));

        assertEquals(
                "class Greeter {\n    String greet() { return \"hello\"; }\n}\n",
                Files.readString(workspace.resolve("Greeter.java")));
        model.takeRequest();
        assertEquals(
                "Edited Greeter.java: 1 replacement (+1 -1).\n--- a/Greeter.java\n+++ b/Greeter.java\n"
                        + "@@ -1,3 +1,3 @@\n class Greeter {\n-    String greet() { return \"hi\"; }\n"
                        + "+    String greet() { return \"hello\"; }\n }\n",
                lastToolResult(model.takeRequest()));
        assertEquals(
                "     1\tclass Greeter {\n     2\t    String greet() { return \"hello\"; }\n     3\t}\n",
                lastToolResult(model.takeRequest()));
        assertEquals(
                "1 match in 1 file:\nGreeter.java:2:    String greet() { return \"hello\"; }\n",
                lastToolResult(model.takeRequest()));
        assertEquals("Exit code: 0\nOutput:\n1", lastToolResult(model.takeRequest()));
    }

    @Test
    void theModelCanPageThroughAnOutputThatWasCut() throws Exception {
        model.enqueue(calls(toolCall("big", "run_shell_command", "{\"command\":\"seq 1 3000\"}")));
        model.reply(request -> {
            String cut = lastToolResult(request);
            String saved = cut.substring(cut.indexOf(" is in ") + 7, cut.indexOf("; read it with read_file"));
            return calls(toolCall("page", "read_file", "{\"path\":\"" + saved + "\",\"offset\":1500,\"limit\":2}"));
        });
        model.enqueue(answer("Line 1500 is 1500."));

        assertEquals(ExitCodes.OK, run("--yolo", "-p", "count"));
        model.takeRequest();
        // The file is named by Dockhand, not after the call id "big".
        String cut = lastToolResult(model.takeRequest());
        assertTrue(cut.matches("(?s).*/output-1-[0-9a-f]{16}\\.txt; read it with read_file.*"), cut);
        assertEquals(
                "  1500\t1500\n  1501\t1501\n\n[Showing lines 1500-1501 of 3000. The file continues: call"
                        + " read_file with offset=1502 to read more.]\n",
                lastToolResult(model.takeRequest()));
    }

    @Test
    void includedDirectoriesAreReachableAndOthersAreNot() throws Exception {
        Path shared = Files.createDirectories(temp.resolve("shared"));
        Files.writeString(shared.resolve("lib.txt"), "library\n");
        Files.writeString(temp.resolve("private.txt"), "secret\n");
        model.enqueue(
                calls(
                        toolCall("i1", "read_file", "{\"path\":\"" + shared.resolve("lib.txt") + "\"}"),
                        toolCall("i2", "read_file", "{\"path\":\"../private.txt\"}")),
                answer("ok"));

        assertEquals(ExitCodes.OK, run("--include-directory", shared.toString(), "-p", "read"));
        model.takeRequest();
        JsonNode messages = model.takeRequest().get("messages");
        assertEquals("     1\tlibrary\n", messages.get(3).get("content").asText());
        assertEquals(
                "'../private.txt' is outside the workspace " + workspace + "; only paths inside it can be" + " used.",
                messages.get(4).get("content").asText());
    }

    @Test
    void aMissingIncludedDirectoryIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run("--include-directory", "nope", "-p", "x"));
        assertEquals(
                List.of("dockhand: --include-directory nope is not a folder; give an existing folder."), errLines());
    }

    @Test
    void thePlanIsShownToTheUser() {
        model.enqueue(
                calls(toolCall(
                        "t1",
                        "todo_write",
                        "{\"todos\":[{\"content\":\"read\",\"status\":"
                                + "\"completed\"},{\"content\":\"fix\",\"status\":\"in_progress\"}]}")),
                answer("ok"));

        assertEquals(ExitCodes.OK, run("-p", "plan"));
        List<String> lines = errLines();
        assertTrue(lines.get(1).startsWith("✓ todo_write 2 steps · 1/2 done ("), lines.get(1));
        assertEquals(List.of("    [x] read", "    [>] fix"), lines.subList(2, 4));
    }

    private static String lastToolResult(JsonNode request) {
        JsonNode messages = request.get("messages");
        return messages.get(messages.size() - 1).get("content").asText();
    }

    @Test
    void refusesCallsThatNeedApprovalWhenNobodyCanApprove() throws Exception {
        model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"x.txt\",\"content\":\"x\"}")),
                answer("I could not write it."));

        int exit = run("-p", "write x");

        assertEquals(ExitCodes.APPROVAL_REQUIRED, exit);
        assertEquals(
                "dockhand: 1 tool call needed approval and nobody could give it; rerun with --yolo (or"
                        + " --approval-mode auto-edit for edits, or --allowed-tools with the tools' names) to allow such"
                        + " calls.",
                errLines().get(errLines().size() - 1));
        assertFalse(Files.exists(workspace.resolve("x.txt")));
        assertEquals(
                "dockhand: refused write_file x.txt: it needs approval; rerun with --approval-mode auto-edit,"
                        + " --yolo or --allowed-tools write_file to allow it.",
                errLines().get(1));
        model.takeRequest();
        String result =
                model.takeRequest().get("messages").get(3).get("content").asText();
        assertTrue(result.startsWith("The write_file call was not run: it needs the user's approval"), result);
        assertTrue(result.contains("--yolo"), result);
    }

    @Test
    void autoEditModeRunsEditsWithoutAsking() throws Exception {
        model.enqueue(calls(toolCall("w1", "write_file", "{\"path\":\"x.txt\",\"content\":\"x\"}")), answer("done"));

        assertEquals(ExitCodes.OK, run("--approval-mode", "auto-edit", "-p", "write x"));
        assertEquals("x", Files.readString(workspace.resolve("x.txt")));
    }

    @Test
    void appendsPipedStdinToThePrompt() {
        model.enqueue(answer("Looks fine."));
        InputStream piped = new ByteArrayInputStream("diff --git a/x b/x\n".getBytes(StandardCharsets.UTF_8));

        assertEquals(ExitCodes.OK, run(piped, false, "-p", "review this"));
        assertEquals(
                "review this\n\ndiff --git a/x b/x",
                model.takeRequest().get("messages").get(1).get("content").asText());
    }

    @Test
    void usesPipedStdinAsThePromptWithoutDashP() {
        model.enqueue(answer("4"));
        InputStream piped = new ByteArrayInputStream("what is 2+2?".getBytes(StandardCharsets.UTF_8));

        assertEquals(ExitCodes.OK, run(piped, false));
        assertEquals(
                "what is 2+2?",
                model.takeRequest().get("messages").get(1).get("content").asText());
    }

    @Test
    void missingModelIsAConfigurationError() {
        variables.remove("DOCKHAND_MODEL");

        assertEquals(ExitCodes.CONFIGURATION, run("-p", "x"));
        assertEquals(
                List.of("dockhand: No model is set: pass --model NAME or set DOCKHAND_MODEL (for example"
                        + " gpt-4.1)."),
                errLines());
        assertEquals(0, model.requestCount());
    }

    @Test
    void missingApiKeyIsAConfigurationError() {
        variables.remove("OPENAI_API_KEY");

        assertEquals(ExitCodes.CONFIGURATION, run("-p", "x"));
        assertEquals(
                List.of("dockhand: OPENAI_API_KEY is not set: export it with your provider's API key (a local"
                        + " server that needs none accepts any value)."),
                errLines());
    }

    @Test
    void badBaseUrlIsAConfigurationError() {
        assertEquals(ExitCodes.CONFIGURATION, run("--base-url", "localhost:8080", "-p", "x"));
        assertEquals(
                List.of("dockhand: The base URL 'localhost:8080' is not an http(s) URL; set it like"
                        + " https://api.openai.com/v1."),
                errLines());
    }

    @Test
    void noPromptAndEmptyPipedStdinIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run(InputStream.nullInputStream(), false));
        assertEquals(List.of("dockhand: No prompt: -p was not given and stdin was empty."), errLines());
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run("--frobnicate", "-p", "x"));
        assertTrue(err.toString().startsWith("Unknown option: '--frobnicate'"), err.toString());
    }

    @Test
    void unknownApprovalModeIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run("--approval-mode", "sometimes", "-p", "x"));
        assertTrue(
                err.toString()
                        .contains("'sometimes' is not an approval mode; use one of" + " plan|default|auto-edit|yolo"),
                err.toString());
    }

    @Test
    void authenticationFailureExits41WithTheProvidersMessage() {
        model.enqueue(new MockResponse().setResponseCode(401).setBody("{\"error\":{\"message\":\"bad key\"}}"));

        assertEquals(ExitCodes.AUTHENTICATION, run("-p", "x"));
        assertEquals(
                "dockhand: The OpenAI-compatible server at " + model.host() + " answered HTTP 401: bad key",
                errLines().get(1));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"openai", "openai-responses", "anthropic", "gemini", "ollama"})
    void completesAToolConversationWithEveryProvider(String provider) throws Exception {
        Files.writeString(workspace.resolve("README.md"), "# Project\n");
        variables.put("ANTHROPIC_API_KEY", "sk-ant");
        variables.put("GEMINI_API_KEY", "g-key");
        String extension = provider.equals("ollama") ? ".ndjson" : ".sse";
        String contentType = provider.equals("ollama") ? "application/x-ndjson" : "text/event-stream";
        for (String fixture : List.of("tool_call", "text")) {
            try (var in = getClass().getResourceAsStream("/providers/" + provider + "/" + fixture + extension)) {
                model.enqueue(new MockResponse()
                        .setHeader("Content-Type", contentType)
                        .setBody(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        }
        String base = provider.startsWith("openai") ? model.baseUrl() : model.rootUrl();

        int exit = run("--provider", provider, "--base-url", base, "-p", "read the readme");

        assertEquals(ExitCodes.OK, exit, err.toString());
        assertEquals("Hello, world.\n", out.toString());
        assertTrue(errLines().get(1).startsWith("✓ read_file README.md · read 1 line ("), err.toString());
        model.takeJson();
        assertTrue(model.takeJson().toString().contains("     1\\t# Project"), "the result went back to the model");
    }

    @Test
    void serverFailureExits1() {
        model.enqueue(new MockResponse().setResponseCode(503).setBody("upstream down"));

        assertEquals(ExitCodes.PROVIDER_FAILURE, run("--retries", "0", "-p", "x"));
        assertEquals(
                "dockhand: The OpenAI-compatible server at " + model.host() + " answered HTTP 503: upstream down",
                errLines().get(1));
    }

    @Test
    void retriesAnOverloadedProviderAndSaysSo() {
        model.enqueue(
                new MockResponse().setResponseCode(529).setBody("{\"error\":{\"message\":\"Overloaded\"}}"),
                answer("Made it."));

        assertEquals(ExitCodes.OK, run("--retry-delay", "10ms", "-p", "x"));
        assertEquals("Made it.\n", out.toString());
        assertTrue(
                errLines()
                        .get(1)
                        .startsWith("dockhand: The OpenAI-compatible server at " + model.host()
                                + " answered HTTP 529: Overloaded; retrying in "),
                errLines().get(1));
        assertTrue(errLines().get(1).endsWith(" (attempt 2 of 4)."), errLines().get(1));
    }

    @Test
    void choosesTheProviderFromTheModelPrefix() {
        variables.put("ANTHROPIC_BASE_URL", model.rootUrl());
        variables.put("ANTHROPIC_API_KEY", "sk-ant");
        model.enqueue(
                new MockResponse()
                        .setHeader("Content-Type", "text/event-stream")
                        .setBody(
                                "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"
                                        + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n"));

        assertEquals(ExitCodes.OK, run("--model", "anthropic:claude-test", "-p", "x"));
        JsonNode request = model.takeJson();
        assertEquals("/v1/messages", model.lastPath());
        assertEquals("claude-test", request.get("model").asText());
        assertEquals("sk-ant", model.lastHeader("x-api-key"));
    }

    @Test
    void aModelOpenAiServesOnlyThroughResponsesGoesThereByItself() {
        model.enqueue(new MockResponse()
                .setHeader("Content-Type", "text/event-stream")
                .setBody("data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"Hi\"}\n\n"
                        + "data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\n\n"));

        assertEquals(ExitCodes.OK, run("--model", "gpt-5.1-codex-max", "-p", "x"), err.toString());
        JsonNode request = model.takeJson();
        assertEquals(
                List.of("/v1/responses", "gpt-5.1-codex-max", "Bearer sk-test", "Hi\n"),
                List.of(
                        model.lastPath(),
                        request.get("model").asText(),
                        model.lastHeader("Authorization"),
                        out.toString()));
    }

    @Test
    void eachProviderNamesItsOwnKeyVariable() {
        assertEquals(ExitCodes.CONFIGURATION, run("--provider", "gemini", "-p", "x"));
        assertEquals(List.of("dockhand: GEMINI_API_KEY is not set: export it with your Gemini API key."), errLines());
    }

    @Test
    void anUnknownProviderIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run("--provider", "skynet", "-p", "x"));
        assertEquals(
                List.of(
                        "dockhand: 'skynet' is not a provider; use one of openai|openai-responses|anthropic|gemini|ollama."),
                errLines());
    }

    @Test
    void aStalledStreamFailsNamingTheTimeout() {
        model.enqueue(new MockResponse().setSocketPolicy(okhttp3.mockwebserver.SocketPolicy.NO_RESPONSE));

        assertEquals(ExitCodes.PROVIDER_FAILURE, run("--retries", "0", "--first-byte-timeout", "300ms", "-p", "x"));
        assertEquals(
                "dockhand: The OpenAI-compatible server at " + model.host() + " sent nothing for 0.3 s (the"
                        + " first-byte time-out); the reply was abandoned.",
                errLines().get(1));
    }

    @Test
    void theApiKeyAppearsNowhereTheUserOrTheLogsSee() throws Exception {
        variables.put("OPENAI_API_KEY", "sk-very-secret-key");
        model.enqueue(new MockResponse()
                .setResponseCode(401)
                .setBody("{\"error\":{\"message\":\"Incorrect API key provided: sk-very-secret-key\"}}"));

        assertEquals(ExitCodes.AUTHENTICATION, run("-p", "x"));

        assertEquals(false, err.toString().contains("sk-very-secret-key"), err.toString());
        assertEquals(false, out.toString().contains("sk-very-secret-key"));
        Path logs = temp.resolve("home/logs");
        if (Files.isDirectory(logs)) {
            try (var files = Files.walk(logs)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertEquals(false, Files.readString(file).contains("sk-very-secret-key"), file.toString());
                }
            }
        }
    }

    @Test
    void turnLimitExits53() {
        model.enqueue(
                calls(toolCall("1", "read_file", "{\"path\":\"a\"}")),
                calls(toolCall("2", "read_file", "{\"path\":\"a\"}")));

        assertEquals(ExitCodes.TURN_LIMIT, run("--max-turns", "2", "-p", "x"));
        assertEquals(
                "dockhand: stopped after 2 model requests (--max-turns 2) while the model still wanted tools;"
                        + " raise --max-turns or narrow the task.",
                errLines().get(errLines().size() - 1));
    }

    @Test
    void helpListsOptionsEnvironmentAndExitCodes() {
        assertEquals(ExitCodes.OK, run("--help"));
        String help = out.toString();
        for (String expected : List.of(
                "--prompt=PROMPT",
                "--approval-mode=MODE",
                "--max-turns=N",
                "--sandbox=KIND",
                "--yolo",
                "OPENAI_API_KEY",
                "DOCKHAND_MODEL",
                "Exit codes:",
                "53",
                "turn limit",
                "130")) {
            assertTrue(help.contains(expected), "help lacks " + expected + ":\n" + help);
        }
    }

    @Test
    void versionNamesDockhand() {
        assertEquals(ExitCodes.OK, run("--version"));
        assertTrue(out.toString().startsWith("dockhand 0."), out.toString());
    }

    @Test
    void commandsDoNotSeeApiKeysOrOtherSecrets() {
        Map<String, String> variables = new java.util.HashMap<>();
        variables.put("OPENAI_API_KEY", "sk");
        variables.put("ANTHROPIC_API_KEY", "a");
        variables.put("WORK_LLM", "the key apiKeyEnv names");
        variables.put("GITHUB_TOKEN", "ghp");
        variables.put("npm_token", "npm");
        variables.put("AWS_SECRET_ACCESS_KEY", "aws");
        variables.put("CLIENT_SECRET", "c");
        variables.put("PGPASSWORD", "pg");
        variables.put("DB_PASSWORD_FILE", "/run/secrets/db");
        variables.put("HOME", "/home/u");
        variables.put("TOKENIZERS_PARALLELISM", "false");
        variables.put("DEPLOY_TOKEN", "kept");

        Map<String, String> filtered =
                Sandboxes.commandEnvironment(variables, "WORK_LLM", java.util.Set.of("DEPLOY_TOKEN"));

        assertEquals(Map.of("HOME", "/home/u", "TOKENIZERS_PARALLELISM", "false", "DEPLOY_TOKEN", "kept"), filtered);
    }
}
