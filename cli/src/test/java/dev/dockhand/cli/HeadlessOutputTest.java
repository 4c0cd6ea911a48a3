package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import dev.dockhand.core.testing.ScriptedModel;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** --output-format json and stream-json, parsed back; tool narrowing; limits of unattended runs. */
public class HeadlessOutputTest extends CliTest {
    private ScriptedModel model;
    private StringWriter out;
    private StringWriter err;
    private Path workspace;

    @BeforeEach
    void setUp() throws Exception {
        model = cli.model;
        out = cli.out;
        err = cli.err;
        workspace = cli.workspace;
        Files.writeString(workspace.resolve("notes.txt"), "remember\n");
    }

    private int run(String... args) {
        return cli.run(args);
    }

    /** The result object without the values that change from run to run. */
    private static JsonNode stable(JsonNode result) {
        ObjectNode copy = result.deepCopy();
        copy.remove("session_id");
        copy.remove("duration_ms");
        copy.remove("usage");
        copy.withArray("tool_calls").forEach(call -> ((ObjectNode) call).remove("duration_ms"));
        return copy;
    }

    @Test
    void jsonPrintsOneResultObjectAndNothingElseOnStdout() {
        model.enqueue(calls(toolCall("r1", "read_file", "{\"path\":\"notes.txt\"}")), answer("It says remember."));

        assertEquals(ExitCodes.OK, run("--output-format", "json", "-p", "what do the notes say"));

        JsonNode result = Json.read(out.toString());
        assertEquals(
                Json.read(
                        """
                {"type":"result","schema_version":1,"answer":"It says remember.","turns":2,
                 "tool_calls":[{"id":"r1","name":"read_file","arguments":{"path":"notes.txt"},"status":"success",
                   "result":"     1\\tremember\\n","redacted":0}],
                 "agents":[],"exit_code":0,"error":null}
                """),
                stable(result));
        assertTrue(result.get("session_id").asText().matches("\\d{8}-\\d{6}-[0-9a-f]{8}"), result.toString());
        assertEquals(1, out.toString().lines().count());
        // The scripted server reports no usage, so Dockhand estimates it, and says so.
        assertTrue(result.get("usage").get("estimated").asBoolean(), result.toString());
        assertTrue(result.get("usage").get("input_tokens").asLong() > 1000, result.toString());
    }

    @Test
    void jsonCarriesTheErrorOfAFailedRun() {
        model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"x.txt\",\"content\":\"x\"}")), answer("Could not."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, run("--output-format", "json", "-p", "write"));

        JsonNode result = Json.read(out.toString());
        assertEquals(54, result.get("exit_code").asInt());
        assertEquals("approval_required", result.get("error").get("kind").asText());
        assertEquals("error", result.get("tool_calls").get(0).get("status").asText());
    }

    @Test
    void jsonAndStreamJsonReportAnEmptyReplyAsAnError() {
        model.enqueue(reply(finish("stop"), done()), reply(finish("stop"), done()));
        JsonNode expected = Json.read(
                """
                {"type":"result","schema_version":1,"answer":"","turns":1,"tool_calls":[],"agents":[],"exit_code":1,
                 "error":{"kind":"empty_reply","message":"the model's last reply had neither text nor a tool call, so\
                 there is no answer; run it again, or try another model."}}
                """);

        assertEquals(ExitCodes.PROVIDER_FAILURE, run("--output-format", "json", "-p", "hi"));
        assertEquals(expected, stable(Json.read(out.toString())));

        out.getBuffer().setLength(0);
        assertEquals(ExitCodes.PROVIDER_FAILURE, run("--output-format", "stream-json", "-p", "hi"));
        List<JsonNode> lines = out.toString().lines().map(Json::read).toList();
        assertEquals(
                List.of("init", "usage", "result"),
                lines.stream().map(line -> line.get("type").asText()).toList());
        assertEquals(expected, stable(lines.get(2)));
    }

    @Test
    void streamJsonPrintsOneObjectPerLineEndingWithTheResult() {
        model.enqueue(calls(toolCall("r1", "read_file", "{\"path\":\"notes.txt\"}")), answer("Done."));

        assertEquals(ExitCodes.OK, run("--output-format", "stream-json", "-p", "read"));

        List<JsonNode> lines = out.toString().lines().map(Json::read).toList();
        List<String> types =
                lines.stream().map(line -> line.get("type").asText()).toList();
        assertEquals(List.of("init", "usage", "tool_call", "tool_result", "text", "text", "usage", "result"), types);
        assertEquals("test-model", lines.get(0).get("model").asText());
        assertEquals(
                Json.read("{\"type\":\"tool_call\",\"schema_version\":1,\"id\":\"r1\",\"name\":\"read_file\","
                        + "\"arguments\":{\"path\":\"notes.txt\"}}"),
                lines.get(2));
        assertEquals(
                "Done.",
                lines.get(4).get("text").asText() + lines.get(5).get("text").asText());
        assertEquals("Done.", lines.get(7).get("answer").asText());
    }

    // codex tool_harness.rs: "shell_tool_executes_command_and_streams_output"
    @Test
    void streamJsonCarriesACommandsOutputLineByLine() {
        model.enqueue(
                calls(toolCall("s1", "run_shell_command", "{\"command\":\"echo one; echo two\"}")), answer("Ran."));

        assertEquals(ExitCodes.OK, run("--yolo", "--output-format", "stream-json", "-p", "run"));

        List<JsonNode> output = out.toString()
                .lines()
                .map(Json::read)
                .filter(line -> line.get("type").asText().equals("tool_output"))
                .toList();
        assertEquals(
                List.of(
                        Json.read("{\"type\":\"tool_output\",\"schema_version\":1,\"id\":\"s1\",\"line\":\"one\"}"),
                        Json.read("{\"type\":\"tool_output\",\"schema_version\":1,\"id\":\"s1\",\"line\":\"two\"}")),
                output);
    }

    @Test
    void excludedToolsAreNotOfferedAndKillBackgroundGoesWithTheShell() {
        model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, run("--excluded-tools", "run_shell_command,web_fetch", "-p", "x"));

        List<String> offered = new ArrayList<>();
        model.takeRequest()
                .get("tools")
                .forEach(tool -> offered.add(tool.get("function").get("name").asText()));
        assertEquals(
                List.of("read_file", "write_file", "edit", "list_directory", "glob", "grep", "todo_write", "agent"),
                offered);
    }

    @Test
    void allowingTheShellAllowsKillBackgroundWithIt() {
        model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, run("--tools", "read_file,run_shell_command", "-p", "x"));

        List<String> offered = new ArrayList<>();
        model.takeRequest()
                .get("tools")
                .forEach(tool -> offered.add(tool.get("function").get("name").asText()));
        assertEquals(List.of("read_file", "run_shell_command", "kill_background"), offered);
    }

    @Test
    void theToolsNamedWithToolsAreTheOnlyOnesOffered() {
        model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, run("--tools", "read_file,grep", "-p", "x"));

        assertEquals(2, model.takeRequest().get("tools").size());
    }

    @Test
    void anUnknownToolNameIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run("--allowed-tools", "read_fil", "-p", "x"));
        assertTrue(
                err.toString().startsWith("dockhand: Unknown tool read_fil; the tools are read_file, write_file,"),
                err.toString());
    }

    @Test
    void theToolCallLimitStopsTheRunBeforeTheCallBeyondIt() throws Exception {
        model.enqueue(
                calls(toolCall("a", "read_file", "{\"path\":\"notes.txt\"}")),
                calls(toolCall("b", "write_file", "{\"path\":\"never.txt\",\"content\":\"x\"}")));

        assertEquals(ExitCodes.TOOL_CALL_LIMIT, run("--yolo", "--max-tool-calls", "1", "-p", "x"));

        assertTrue(!Files.exists(workspace.resolve("never.txt")));
        assertTrue(
                err.toString()
                        .strip()
                        .endsWith("dockhand: stopped: the model asked for more than the"
                                + " --max-tool-calls of 1 tool calls."),
                err.toString());
    }

    @Test
    void aModelGoingRoundInCirclesIsStopped() {
        for (int i = 0; i < 5; i++) {
            model.enqueue(calls(toolCall("l" + i, "read_file", "{\"path\":\"notes.txt\"}")));
        }

        assertEquals(ExitCodes.LOOP_DETECTED, run("--output-format", "json", "-p", "x"));
        assertEquals(
                "loop_detected",
                Json.read(out.toString()).get("error").get("kind").asText());
        assertTrue(
                err.toString()
                        .strip()
                        .endsWith(
                                "dockhand: the model called read_file with the same arguments 5"
                                        + " times in a row, so the turn was stopped; rephrase the request or give it more to go on."),
                err.toString());
    }

    @Test
    void projectInstructionsReachTheModel() throws Exception {
        Files.writeString(workspace.resolve("AGENTS.md"), "Always run ./gradlew check before answering.\n");
        model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, run("-p", "x"));

        String system =
                model.takeRequest().get("messages").get(0).get("content").asText();
        assertTrue(
                system.endsWith("## " + workspace.resolve("AGENTS.md") + "\n\nAlways run ./gradlew check before"
                        + " answering.\n"),
                system);
    }

    @Test
    void aProjectInstructionFileLinkedOutOfTheProjectIsNotSentAndTheUserIsTold() throws Exception {
        Path secret = Files.writeString(
                Files.createTempFile(workspace.getParent(), "credentials", ""), "aws_secret_access_key = hush\n");
        Files.createSymbolicLink(workspace.resolve("AGENTS.md"), secret);
        model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, run("-p", "x"));

        String system =
                model.takeRequest().get("messages").get(0).get("content").asText();
        assertFalse(system.contains("hush"), system);
        assertTrue(
                err.toString()
                        .contains("dockhand: " + workspace.resolve("AGENTS.md") + " was not read: it is a link to "
                                + secret.toRealPath() + ", outside the project.\n"),
                err.toString());
    }

    @Test
    void theWallTimeLimitStopsALongRun() {
        model.enqueue(calls(toolCall("s", "run_shell_command", "{\"command\":\"sleep 30\"}")));

        long before = System.nanoTime();
        assertEquals(ExitCodes.WALL_TIME_LIMIT, run("--yolo", "--max-wall-time", "500ms", "-p", "x"));

        assertTrue(System.nanoTime() - before < 10_000_000_000L, "the limit should end the run promptly");
        assertTrue(
                err.toString().strip().endsWith("dockhand: stopped after the --max-wall-time of 500 ms."),
                err.toString());
    }
}
