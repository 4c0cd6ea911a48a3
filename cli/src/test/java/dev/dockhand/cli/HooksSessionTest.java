package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Hooks in whole runs: configured in the settings files, run on the host as real commands, their answers read. */
class HooksSessionTest extends CliTest {
    @BeforeEach
    void open() throws Exception {
        Files.createDirectories(temp.resolve("home"));
    }

    private void user(String json) throws Exception {
        Files.writeString(temp.resolve("home/settings.json"), json);
    }

    private void project(String json) throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(cli.workspace.resolve(".dockhand/settings.json"), json);
    }

    /** A hook script under the temporary folder, outside the workspace. */
    private String script(String name, String body) throws Exception {
        Path file = temp.resolve(name);
        Files.writeString(file, "#!/bin/bash\n" + body + "\n");
        file.toFile().setExecutable(true);
        return file.toString();
    }

    private static String hooks(String event, String matcher, String command, int timeout) {
        return "{\"hooks\": {\"" + event + "\": [{\"matcher\": \"" + matcher + "\", \"hooks\": [{\"type\": \"command\","
                + " \"command\": " + Json.write(command) + ", \"timeout\": " + timeout + "}]}]}}";
    }

    /** The tool messages of a request, each as its call id and content. */
    private static List<String> toolResults(JsonNode request) {
        List<String> results = new ArrayList<>();
        request.get("messages").forEach(message -> {
            if (message.get("role").asText().equals("tool")) {
                results.add(message.get("tool_call_id").asText() + ": "
                        + message.get("content").asText());
            }
        });
        return results;
    }

    private List<String> errLines(String containing) {
        return cli.err
                .toString()
                .lines()
                .filter(line -> line.contains(containing))
                .toList();
    }

    @Test
    void aPreToolUseHookThatExitsTwoBlocksTheCallAndItsStderrReachesTheModel() throws Exception {
        String policy = script(
                "policy.sh", "cat > \"" + temp.resolve("input.json") + "\"\necho 'rm is not allowed here' >&2\nexit 2");
        user(hooks("PreToolUse", "run_shell_command", policy, 10));
        Files.writeString(cli.workspace.resolve("keep.txt"), "keep");
        cli.model.enqueue(
                calls(toolCall("s1", "run_shell_command", "{\"command\":\"rm keep.txt\"}")), answer("I did not."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "remove keep.txt"));

        cli.model.takeRequest();
        assertEquals(
                List.of("s1: The run_shell_command call was not run: a PreToolUse hook blocked it: rm is not allowed"
                        + " here"),
                toolResults(cli.model.takeRequest()));
        assertEquals(true, Files.exists(cli.workspace.resolve("keep.txt")));
        JsonNode input = Json.read(Files.readString(temp.resolve("input.json")));
        assertEquals(
                List.of("PreToolUse", "run_shell_command", "{\"command\":\"rm keep.txt\"}", cli.workspace.toString()),
                List.of(
                        input.get("hook_event_name").asText(),
                        input.get("tool_name").asText(),
                        Json.write(input.get("tool_input")),
                        input.get("cwd").asText()));
    }

    @Test
    void aHookThatTimesOutIsStoppedAndReportedAndTheCallStillRuns() throws Exception {
        // The hook waits on something that never comes; its one-second time-out ends it.
        String sleeper = "sleep 1000." + ThreadLocalRandom.current().nextInt(1_000_000, 10_000_000);
        user(hooks("PreToolUse", "", sleeper, 1));
        cli.model.enqueue(calls(toolCall("s1", "run_shell_command", "{\"command\":\"echo ran\"}")), answer("Done."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "--output-format", "stream-json", "-p", "go"));

        cli.model.takeRequest();
        assertEquals(List.of("s1: Exit code: 0\nOutput:\nran"), toolResults(cli.model.takeRequest()));
        String warning = "The PreToolUse hook `" + sleeper + "` did not finish within 1 s and was stopped; Dockhand"
                + " went on without it.";
        assertEquals(
                List.of(Json.object()
                        .put("type", "warning")
                        .put("schema_version", 1)
                        .put("message", warning)),
                cli.out
                        .toString()
                        .lines()
                        .map(Json::read)
                        .filter(line -> line.get("type").asText().equals("warning"))
                        .toList());
    }

    @Test
    void aProjectsHooksRunOnlyInATrustedFolder() throws Exception {
        String policy = script("policy.sh", "echo 'blocked by the project' >&2\nexit 2");
        project(hooks("PreToolUse", "run_shell_command", policy, 10));
        cli.model.enqueue(
                calls(toolCall("s1", "run_shell_command", "{\"command\":\"echo ran\"}")),
                answer("a"),
                calls(toolCall("s2", "run_shell_command", "{\"command\":\"echo ran\"}")),
                answer("b"));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "go"));
        cli.model.takeRequest();
        assertEquals(List.of("s1: Exit code: 0\nOutput:\nran"), toolResults(cli.model.takeRequest()));
        assertEquals(
                List.of("dockhand: " + cli.workspace.resolve(".dockhand/settings.json") + ": ignored hooks: this"
                        + " folder is not trusted, and they would widen what runs or where data goes; trust it with"
                        + " 'dockhand trust' (or --trust-project for one run)."),
                errLines("ignored hooks"));

        assertEquals(ExitCodes.OK, cli.run("--trust-project", "--yolo", "-p", "go"));
        cli.model.takeRequest();
        assertEquals(
                List.of("s2: The run_shell_command call was not run: a PreToolUse hook blocked it: blocked by the"
                        + " project"),
                toolResults(cli.model.takeRequest()));
    }

    @Test
    void aBlockedPromptIsNotSentAndTheRunExits59() throws Exception {
        user(hooks("UserPromptSubmit", "", "echo 'no secrets in prompts' >&2; exit 2", 10));

        assertEquals(ExitCodes.PROMPT_BLOCKED, cli.run("-p", "my password is hunter2"));

        assertEquals(0, cli.model.requestCount());
        assertEquals(
                List.of(
                        "dockhand: A UserPromptSubmit hook (`echo 'no secrets in prompts' >&2; exit 2`) blocked the"
                                + " prompt: no secrets in prompts",
                        "dockhand: a UserPromptSubmit hook blocked the prompt, so nothing was sent; the warning before"
                                + " this says why."),
                errLines("UserPromptSubmit"));
    }

    @Test
    void sessionStartAndPostToolUseHooksAddWhatTheModelReads() throws Exception {
        Files.writeString(
                temp.resolve("home/settings.json"),
                "{\"hooks\": {"
                        + "\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\","
                        + " \"command\": \"echo 'the build is green'\"}]}],"
                        + "\"PostToolUse\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\","
                        + " \"command\": \"echo '{\\\"hookSpecificOutput\\\": {\\\"additionalContext\\\":"
                        + " \\\"formatted\\\"}}'\"}]}]}}");
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"a.txt\",\"content\":\"x\\n\"}")), answer("Written."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "write a.txt"));

        JsonNode first = cli.model.takeRequest();
        assertEquals(
                "write a.txt\n\n<hook_context event=\"SessionStart\">\nthe build is green\n</hook_context>",
                first.get("messages").get(1).get("content").asText());
        assertEquals(
                List.of(
                        "w1: Created a.txt (1 line).\n\n<hook_context event=\"PostToolUse\">\nformatted\n</hook_context>"),
                toolResults(cli.model.takeRequest()));
    }

    @Test
    void aHookThatCannotRunStopsTheRunNamingItsFile() throws Exception {
        user(hooks("PreToolUse", "edit(", "true", 10));

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "hi"));

        assertEquals(
                List.of("dockhand: " + temp.resolve("home/settings.json") + ": hooks.PreToolUse: the matcher 'edit('"
                        + " is not a valid regular expression (Unclosed group)."),
                errLines("matcher"));
    }

    @Test
    void inTheReplABlockedPromptShowsTheHooksReasonAndTheSessionCarriesOn() throws Exception {
        // grep reads the hook's JSON input from stdin; the hook runs in the workspace.
        Path guard = cli.workspace.resolve("guard.sh");
        Files.writeString(guard, "#!/bin/bash\ngrep -q secret && { echo 'no secrets' >&2; exit 2; }\nexit 0\n");
        guard.toFile().setExecutable(true);
        user(hooks("UserPromptSubmit", "", "./guard.sh", 10));
        cli.model.enqueue(answer("Hello."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("the secret is 42");
            repl.await("no secrets");
            repl.awaitPrompt();
            repl.submit("hi");
            repl.await("Hello.");
            repl.awaitPrompt();

            assertEquals(
                    List.of(
                            "› the secret is 42",
                            "⚠ A UserPromptSubmit hook (`./guard.sh`) blocked the prompt: no secrets"),
                    repl.rowsFrom("› the secret is 42").subList(0, 2));
            assertEquals(
                    "hi",
                    cli.model
                            .takeRequest()
                            .get("messages")
                            .get(1)
                            .get("content")
                            .asText());
            assertEquals(1, cli.model.requestCount());
        }
    }
}
