package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Permission rules from the settings files, in single-shot runs: the user's always, a project's as trust allows. */
public class PermissionRulesCliTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(cli.workspace.resolve("keep.txt"), "precious\n");
    }

    private void user(String json) throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), json);
    }

    private void project(String json) throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(cli.workspace.resolve(".dockhand/settings.json"), json);
    }

    /** The model calls run_shell_command with {@code command}, then answers. */
    private void modelRuns(String command) {
        cli.model.enqueue(
                calls(toolCall(
                        "s1",
                        "run_shell_command",
                        Json.object().put("command", command).toString())),
                answer("Done."));
    }

    /** The result the model read for its one call, from the request after the round. */
    private String resultSentBack() {
        cli.model.takeRequest();
        return cli.model.takeRequest().get("messages").get(3).get("content").asText();
    }

    private int unattended(String... args) {
        return cli.run(new ByteArrayInputStream(new byte[0]), false, args);
    }

    @Test
    void aUsersDenyRuleRefusesRmInAYoloRunAndTheModelIsToldWhichRule() throws Exception {
        user("{\"permissions\": {\"deny\": [\"run_shell_command(rm *)\"]}}");
        modelRuns("rm keep.txt");

        int exit = cli.run("--yolo", "-p", "tidy up");

        assertEquals(ExitCodes.OK, exit);
        assertEquals("precious\n", Files.readString(cli.workspace.resolve("keep.txt")));
        assertEquals(
                "The run_shell_command call was not run: the permission rule \"deny run_shell_command(rm *)\" (user"
                        + " settings) refuses it, whatever the approval mode. Do not try to get around it another way:"
                        + " finish what you can without it and tell the user what was not done.",
                resultSentBack());
    }

    @Test
    void anUntrustedProjectsDenyRuleStillApplies() throws Exception {
        project("{\"permissions\": {\"deny\": [\"run_shell_command(rm *)\"]}}");
        modelRuns("ls && rm keep.txt");

        assertEquals(ExitCodes.OK, cli.run("--yolo", "-p", "tidy up"));

        assertEquals("precious\n", Files.readString(cli.workspace.resolve("keep.txt")));
        assertEquals(
                "The run_shell_command call was not run: the permission rule \"deny run_shell_command(rm *)\" (project"
                        + " settings) refuses it, whatever the approval mode. Do not try to get around it another way:"
                        + " finish what you can without it and tell the user what was not done.",
                resultSentBack());
    }

    @Test
    void anUntrustedProjectsAllowRuleIsIgnoredAndSaidSo() throws Exception {
        project("{\"permissions\": {\"allow\": [\"run_shell_command(touch *)\"]}}");
        modelRuns("touch made.txt");

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("-p", "make a file"));

        assertEquals(false, Files.exists(cli.workspace.resolve("made.txt")));
        assertEquals(
                "dockhand: " + cli.workspace.resolve(".dockhand/settings.json") + ": ignored permissions.allow: this"
                        + " folder is not trusted, and they would widen what runs or where data goes; trust it with"
                        + " 'dockhand trust' (or --trust-project for one run).",
                cli.errLines().get(0));
    }

    @Test
    void aTrustedProjectsAllowRuleRunsTheCommandWithoutAQuestion() throws Exception {
        project("{\"permissions\": {\"allow\": [\"run_shell_command(touch *)\"]}}");
        modelRuns("touch made.txt");

        assertEquals(ExitCodes.OK, cli.run("--trust-project", "-p", "make a file"));

        assertEquals(true, Files.exists(cli.workspace.resolve("made.txt")));
    }

    @Test
    void theUsersRulesForThisFolderApplyHereAndNotElsewhere() throws Exception {
        Path other = Files.createDirectories(temp.resolve("other")).toRealPath();
        user("{\"permissions\": {\"projects\": {"
                + Json.MAPPER.writeValueAsString(cli.workspace.toString())
                + ": {\"allow\": [\"run_shell_command(touch *)\"]},"
                + Json.MAPPER.writeValueAsString(other.toString())
                + ": {\"deny\": [\"run_shell_command(touch *)\"]}}}}");
        modelRuns("touch made.txt");

        assertEquals(ExitCodes.OK, cli.run("-p", "make a file"));

        assertEquals(true, Files.exists(cli.workspace.resolve("made.txt")));
    }

    @Test
    void anAskRuleInAnUnattendedYoloRunIsRefusedWithItsReason() throws Exception {
        user("{\"permissions\": {\"ask\": [\"run_shell_command(touch *)\"]}}");
        modelRuns("touch made.txt");

        assertEquals(ExitCodes.APPROVAL_REQUIRED, unattended("--yolo", "-p", "make a file"));

        assertEquals(false, Files.exists(cli.workspace.resolve("made.txt")));
        assertEquals(
                "The run_shell_command call was not run: The permission rule \"ask run_shell_command(touch *)\" (user"
                        + " settings) asks the user about this call, whatever the approval mode. Nobody can give that"
                        + " yes in this non-interactive run, and --yolo does not cover it. Do not try another way"
                        + " around it: finish what you can and tell the user what was not done.",
                resultSentBack());
    }

    @Test
    void aRuleThatCannotBeReadStopsTheRunNamingTheFileAndTheRule() throws Exception {
        user("{\"permissions\": {\"allow\": [\"web_fetch(docs.oracle.com)\"]}}");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "hello"));

        assertEquals(
                List.of("dockhand: " + temp.resolve("home/settings.json") + ": permissions.allow"
                        + " \"web_fetch(docs.oracle.com)\" is not a permission rule: web_fetch takes domain:HOST, like"
                        + " web_fetch(domain:docs.oracle.com)."),
                cli.errLines());
        assertEquals(0, cli.model.requestCount());
    }
}
