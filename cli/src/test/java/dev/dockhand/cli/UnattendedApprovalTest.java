package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What --yolo does not cover when nobody watches: protected paths, and web fetches the user did not name. */
public class UnattendedApprovalTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(cli.workspace.resolve(".git/hooks"));
        Files.writeString(cli.workspace.resolve(".git/config"), "[core]\n");
    }

    /** The result the model read for its one call, from the request after the round. */
    private String resultSentBack() {
        cli.model.takeRequest();
        JsonNode messages = cli.model.takeRequest().get("messages");
        return messages.get(3).get("content").asText();
    }

    private int runPiped(String... args) {
        return cli.run(new ByteArrayInputStream("".getBytes(StandardCharsets.UTF_8)), false, args);
    }

    @Test
    void yoloDoesNotLetAFileToolWriteAHook() throws Exception {
        cli.model.enqueue(
                calls(toolCall("h", "write_file", "{\"path\":\".git/hooks/pre-commit\",\"content\":\"evil\\n\"}")),
                answer("It is protected."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("--yolo", "-p", "add a hook"));

        assertFalse(Files.exists(cli.workspace.resolve(".git/hooks/pre-commit")));
        assertEquals(
                "The write_file call was not run: .git/hooks is protected: git runs the hooks in it on your machine."
                        + " Only the user's own yes to this call lets a tool change it, whatever the approval mode."
                        + " Nobody can give that yes in this non-interactive run, and --yolo does not cover it. The"
                        + " user can let the model change it with --allow-protected-path .git/hooks or by listing it"
                        + " under protectedPaths.allow in ~/.dockhand/settings.json. Do not try another way around it:"
                        + " finish what you can and tell the user what was not done.",
                resultSentBack());
        assertTrue(
                cli.errLines()
                        .contains(
                                "dockhand: refused write_file .git/hooks/pre-commit: .git/hooks is protected; allow it"
                                        + " with --allow-protected-path .git/hooks."),
                cli.err.toString());
        assertTrue(
                cli.errLines()
                        .contains("dockhand: 1 tool call needed your explicit approval, which no flag gives after the"
                                + " fact (see the lines above)."),
                cli.err.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                ".git/hooks/pre-commit",
                ".git/config",
                "vendor/x/.git/hooks/post-commit",
                "vendor/x/.git/config",
                ".git/modules/lib/config",
                ".git/worktrees/feature/commondir",
                "libs/foo/.git",
                ".dockhand/settings.json",
                ".vscode/tasks.json",
                "packages/app/.vscode/settings.json",
                ".devcontainer/devcontainer.json",
                "packages/app/.devcontainer.json",
                ".aider.conf.yml",
                ".idea/workspace.xml",
                ".husky/pre-commit",
                ".claude/settings.json",
                ".gemini/settings.json",
                ".qwen/settings.json",
                ".codex/config.toml",
                ".cursor/mcp.json",
                ".opencode/opencode.json",
                ".mcp.json",
                "packages/app/.mcp.json",
                "opencode.json",
                "packages/app/opencode.jsonc"
            })
    void yoloDoesNotLetAFileToolWriteAnyProtectedPath(String path) throws Exception {
        Path file = cli.workspace.resolve(path);
        String before = Files.exists(file) ? Files.readString(file) : "(absent)";
        cli.model.enqueue(
                calls(toolCall("w", "write_file", "{\"path\":\"" + path + "\",\"content\":\"planted\\n\"}")),
                answer("Protected."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("--yolo", "-p", "plant"));

        assertEquals(before, Files.exists(file) ? Files.readString(file) : "(absent)");
        assertTrue(resultSentBack().startsWith("The write_file call was not run: "), cli.err.toString());
    }

    @Test
    void editingGitConfigOrDockhandSettingsIsRefusedToo() throws Exception {
        cli.model.enqueue(
                calls(
                        toolCall(
                                "c",
                                "edit",
                                "{\"path\":\".git/config\",\"old_string\":\"[core]\","
                                        + "\"new_string\":\"[core]\\n\\tfsmonitor = touch /tmp/pwned\"}"),
                        toolCall(
                                "s",
                                "write_file",
                                "{\"path\":\".dockhand/settings.json\",\"content\":\"{\\\"approvalMode\\\":\\\"yolo\\\"}\"}")),
                answer("Both protected."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("--yolo", "-p", "widen yourself"));

        assertEquals("[core]\n", Files.readString(cli.workspace.resolve(".git/config")));
        assertFalse(Files.exists(cli.workspace.resolve(".dockhand/settings.json")));
    }

    @Test
    void aPathTheUserAllowsOnTheCommandLineIsWritten() throws Exception {
        cli.model.enqueue(
                calls(toolCall("h", "write_file", "{\"path\":\".git/hooks/pre-commit\",\"content\":\"lint\\n\"}")),
                answer("Installed."));

        assertEquals(ExitCodes.OK, cli.run("--yolo", "--allow-protected-path", ".git/hooks", "-p", "install hook"));

        assertEquals("lint\n", Files.readString(cli.workspace.resolve(".git/hooks/pre-commit")));
    }

    @Test
    void aPathTheUserAddsInTheirSettingsIsProtected() throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), "{\"protectedPaths\": {\"add\": [\"deploy\"]}}");
        cli.model.enqueue(
                calls(toolCall("d", "write_file", "{\"path\":\"deploy/prod.sh\",\"content\":\"rm -rf /\\n\"}")),
                answer("Protected."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("--yolo", "-p", "change the deploy"));

        assertFalse(Files.exists(cli.workspace.resolve("deploy/prod.sh")));
    }

    @Test
    void anUnattendedYoloRunDoesNotFetchUnlessTheUserNamedWebFetch() {
        cli.model.enqueue(
                calls(toolCall("f", "web_fetch", "{\"url\":\"https://docs.example.com/page\"}")), answer("Skipped."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, runPiped("--yolo", "-p", "read the docs"));

        assertTrue(
                resultSentBack()
                        .startsWith("The web_fetch call was not run: In an unattended --yolo run, web fetches run only"
                                + " when the user named web_fetch in --allowed-tools"),
                cli.err.toString());
    }

    @Test
    void ciCountsAsUnattendedEvenOnATerminal() {
        cli.variables.put("CI", "true");
        cli.model.enqueue(
                calls(toolCall("f", "web_fetch", "{\"url\":\"https://docs.example.com/page\"}")), answer("Skipped."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("--yolo", "-p", "read the docs"));
    }

    @Test
    void namingWebFetchLetsAnUnattendedYoloRunFetch() {
        cli.model.enqueue(
                // Port 9 on loopback: nothing listens, so the fetch itself fails; what matters is that it ran.
                calls(toolCall("f", "web_fetch", "{\"url\":\"http://127.0.0.1:9/\"}")), answer("Tried."));

        runPiped("--yolo", "--allowed-tools", "web_fetch,read_file", "-p", "read the docs");

        assertFalse(resultSentBack().contains("was not run"), cli.err.toString());
    }

    @Test
    void webFetchReachesAnInternalHostOnlyWhenTheUsersSettingsAllowIt() throws Exception {
        try (okhttp3.mockwebserver.MockWebServer docs = new okhttp3.mockwebserver.MockWebServer()) {
            docs.enqueue(new okhttp3.mockwebserver.MockResponse()
                    .setHeader("Content-Type", "text/plain")
                    .setBody("internal docs"));
            docs.start(java.net.InetAddress.getLoopbackAddress(), 0);
            String url = "http://127.0.0.1:" + docs.getPort() + "/page";
            Files.createDirectories(cli.workspace.resolve(".dockhand"));
            Files.writeString(
                    cli.workspace.resolve(".dockhand/settings.json"),
                    "{\"webFetch\": {\"allowedHosts\": [\"127.0.0.1\"]}}");
            cli.model.enqueue(calls(toolCall("f", "web_fetch", "{\"url\":\"" + url + "\"}")), answer("Refused."));

            cli.run("--yolo", "-p", "read it");

            assertTrue(resultSentBack().startsWith("Fetching " + url + " was refused"), cli.err.toString());
            assertEquals(0, docs.getRequestCount());

            Files.createDirectories(temp.resolve("home"));
            Files.writeString(
                    temp.resolve("home/settings.json"), "{\"webFetch\": {\"allowedHosts\": [\"127.0.0.1\"]}}");
            cli.model.enqueue(calls(toolCall("f", "web_fetch", "{\"url\":\"" + url + "\"}")), answer("Read."));

            assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "read it"));

            assertTrue(resultSentBack().contains("internal docs"), cli.err.toString());
        }
    }

    @Test
    void aBadAllowedHostStopsTheRunBeforeTheModelIsAsked() throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), "{\"webFetch\": {\"allowedHosts\": [\"10.0.0.0/33\"]}}");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "x"));

        assertTrue(cli.errLines().get(0).startsWith("dockhand: webFetch.allowedHosts: "), cli.err.toString());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void aTranscriptThatCannotBeWrittenIsReportedOnceAndTheRunGoesOn() throws Exception {
        Files.createDirectories(temp.resolve("home"));
        // A file where the sessions folder should be: the transcript cannot be written, even by root.
        Files.writeString(temp.resolve("home/sessions"), "not a folder");
        cli.model.enqueue(calls(toolCall("r", "read_file", "{\"path\":\".git/config\"}")), answer("Read it."));

        assertEquals(ExitCodes.OK, cli.run("-p", "read the config"));

        assertEquals(
                1,
                cli.errLines().stream()
                        .filter(line -> line.startsWith("dockhand: the session transcript ")
                                && line.endsWith("this session goes on in memory and cannot be resumed later."))
                        .count(),
                cli.err.toString());
        assertTrue(cli.out.toString().contains("Read it."));
    }

    // Issue 34's done-when; gemini-cli coreToolScheduler.test.ts: "should auto-approve a tool call if it is on the
    // allowedTools list".
    @Test
    void aToolNamedInAllowedToolsRunsWithoutAQuestion() throws Exception {
        cli.model.enqueue(calls(toolCall("s", "run_shell_command", "{\"command\":\"touch ran\"}")), answer("Ran it."));

        assertEquals(ExitCodes.OK, runPiped("--allowed-tools", "run_shell_command", "-p", "touch a file"));

        assertTrue(Files.exists(cli.workspace.resolve("ran")), cli.err.toString());
        assertTrue(resultSentBack().startsWith("Exit code: 0"), cli.err.toString());
    }

    @Test
    void anAllowedToolStillAsksBeforeItWritesAProtectedPath() {
        cli.model.enqueue(
                calls(toolCall("h", "write_file", "{\"path\":\".git/hooks/pre-commit\",\"content\":\"x\\n\"}")),
                answer("It is protected."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, runPiped("--allowed-tools", "write_file", "-p", "add a hook"));

        assertFalse(Files.exists(cli.workspace.resolve(".git/hooks/pre-commit")));
    }

    // gemini-cli coreToolScheduler.test.ts: "should require approval for a chained shell command even when prefix is
    // allowlisted" (Dockhand has no prefix rules: a rule is refused, so nothing is allowed by prefix)
    @Test
    void aPermissionRuleWithArgumentsIsRefusedByName() {
        assertEquals(
                ExitCodes.USAGE, runPiped("--allowed-tools", "run_shell_command(git status)", "-p", "show status"));

        assertEquals(
                "dockhand: --allowed-tools run_shell_command(git status): rules with arguments are not supported yet;"
                        + " name the whole tool (run_shell_command) to let all its calls run without a question, or"
                        + " leave it out to be asked.\n",
                cli.err.toString());
    }

    @Test
    void aCallOfAnExcludedToolIsAnsweredThatTheUserExcludedIt() {
        cli.model.enqueue(
                calls(toolCall("f", "web_fetch", "{\"url\":\"https://docs.example.com/\"}")), answer("Without it."));

        assertEquals(ExitCodes.OK, runPiped("--excluded-tools", "web_fetch", "-p", "read the docs"));

        assertTrue(
                resultSentBack()
                        .startsWith("The web_fetch call was not run: the user excluded it (--excluded-tools), so it"
                                + " is not available in this session."),
                cli.err.toString());
    }
}
