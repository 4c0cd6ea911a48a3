package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.testing.ProviderFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Sessions recorded as they happen, listed, resumed, and repaired after a real kill -9 of the JVM. */
public class SessionResumeTest extends CliTest {
    @Test
    void aResumedSessionSendsTheWholeHistory() {
        cli.model.enqueue(answer("First answer."));
        assertEquals(ExitCodes.OK, cli.run("-p", "first question"));
        cli.model.enqueue(answer("Second answer."));

        assertEquals(ExitCodes.OK, cli.run("--resume", "-p", "second question"));

        cli.model.takeRequest();
        JsonNode messages = cli.model.takeRequest().get("messages");
        assertEquals(4, messages.size());
        assertEquals("first question", messages.get(1).get("content").asText());
        assertEquals("First answer.", messages.get(2).get("content").asText());
        assertEquals("second question", messages.get(3).get("content").asText());
    }

    @Test
    void anAnthropicSessionResumedWithEveryToolExcludedStillDeclaresTheToolsItsHistoryCalled() {
        cli.variables.put("ANTHROPIC_API_KEY", "sk-ant-test");
        cli.variables.put("ANTHROPIC_BASE_URL", cli.model.baseUrl());
        String[] claude = {"--provider", "anthropic", "--model", "claude-sonnet-4-5", "--tools", "read_file"};
        cli.model.enqueue(
                ProviderFixtures.stream("anthropic", "tool_call"), ProviderFixtures.stream("anthropic", "text"));
        assertEquals(ExitCodes.OK, cli.run(concat(claude, "-p", "read the readme")), cli.err.toString());
        cli.model.enqueue(ProviderFixtures.stream("anthropic", "text"));

        // The scripted Messages API, like the real one, refuses tool blocks in a request without tools.
        assertEquals(
                ExitCodes.OK,
                cli.run(concat(claude, "--excluded-tools", "read_file", "--resume", "-p", "thanks")),
                cli.err.toString());

        JsonNode first = cli.model.takeRequest();
        cli.model.takeRequest();
        JsonNode resumed = cli.model.takeRequest();
        assertEquals(first.get("tools"), resumed.get("tools"));
        assertEquals(dev.dockhand.core.Json.read("{\"type\":\"none\"}"), resumed.get("tool_choice"));
    }

    private static String[] concat(String[] head, String... tail) {
        return java.util.stream.Stream.concat(java.util.Arrays.stream(head), java.util.Arrays.stream(tail))
                .toArray(String[]::new);
    }

    @Test
    void aProviderFailureIsRecordedInTheTranscript() throws Exception {
        cli.model.enqueue(
                new okhttp3.mockwebserver.MockResponse().setResponseCode(503).setBody("down"));

        assertEquals(ExitCodes.PROVIDER_FAILURE, cli.run("--retries", "0", "-p", "x"));

        Path sessions = temp.resolve("home/sessions");
        try (var files = Files.walk(sessions)) {
            Path transcript = files.filter(file -> file.toString().endsWith(".jsonl"))
                    .findFirst()
                    .orElseThrow();
            String lastLine = Files.readAllLines(transcript)
                    .get(Files.readAllLines(transcript).size() - 1);
            JsonNode error = dev.dockhand.core.Json.read(lastLine);
            assertEquals("error", error.get("type").asText());
            assertTrue(error.get("message").asText().endsWith("answered HTTP 503: down"), lastLine);
        }
    }

    @Test
    void sessionsListsThem() {
        cli.model.enqueue(answer("ok"));
        cli.run("-p", "remember this prompt");

        assertEquals(ExitCodes.OK, cli.run("sessions"));

        assertTrue(cli.out.toString().contains("1 turn   remember this prompt"), cli.out.toString());
    }

    @Test
    void resumingAnUnknownSessionIsAUsageError() {
        assertEquals(ExitCodes.USAGE, cli.run("--resume", "nope", "-p", "x"));
        assertEquals(
                "dockhand: There is no session nope in this folder; list them with dockhand sessions.",
                cli.errLines().get(0));
    }

    @Test
    void aSessionKilledMidRoundResumesWithAValidRequest() throws Exception {
        cli.model.enqueue(calls(toolCall("k1", "run_shell_command", "{\"command\":\"touch started; sleep 20\"}")));
        Path childErr = temp.resolve("child.err");
        Process child = cli.start(childErr, "--yolo", "-p", "run the build");
        cli.awaitFile("started", child, childErr);
        child.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        cli.model.takeRequest();

        cli.model.enqueue(answer("Picking up where we left off."));
        assertEquals(ExitCodes.OK, cli.run("--resume", "latest", "-p", "go on"));

        JsonNode messages = cli.model.takeRequest().get("messages");
        assertEquals("k1", messages.get(2).get("tool_calls").get(0).get("id").asText());
        assertEquals("k1", messages.get(3).get("tool_call_id").asText());
        assertTrue(messages.get(3).get("content").asText().startsWith("Not run to the end: Dockhand stopped"));
        assertEquals("go on", messages.get(4).get("content").asText());
        assertTrue(
                cli.err
                        .toString()
                        .contains("1 tool call(s) left unfinished by a crash were answered as" + " interrupted."),
                cli.err.toString());
    }
}
