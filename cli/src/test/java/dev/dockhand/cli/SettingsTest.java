package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Settings files and their precedence: command line > environment > project > user > defaults. */
public class SettingsTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        cli.variables.remove("DOCKHAND_MODEL");
    }

    private void user(String json) throws Exception {
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), json);
    }

    private void project(String json) throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(cli.workspace.resolve(".dockhand/settings.json"), json);
    }

    private String line(String key) {
        return cli.out
                .toString()
                .lines()
                .filter(line -> line.startsWith(key + " "))
                .findFirst()
                .orElse("")
                .replaceAll(" +", " ");
    }

    @Test
    void configShowsEachValueAndItsSourceInPrecedenceOrder() throws Exception {
        user("{\"model\":\"user-model\",\"maxTurns\":7,\"approvalMode\":\"plan\",\"sandbox\":{\"pids\":99}}");
        project("{\"maxTurns\":5,\"sandbox\":{\"pids\":77}}");
        cli.variables.put("DOCKHAND_MODEL", "env-model");

        assertEquals(ExitCodes.OK, cli.run("--sandbox-pids", "55", "config"));

        assertEquals("model = env-model (environment (DOCKHAND_MODEL))", line("model"));
        assertEquals("maxTurns = 5 (" + cli.workspace.resolve(".dockhand/settings.json") + ")", line("maxTurns"));
        assertEquals("approvalMode = plan (" + temp.resolve("home/settings.json") + ")", line("approvalMode"));
        assertEquals("sandbox.pids = 55 (command line (--sandbox-pids))", line("sandbox.pids"));
        assertEquals("sandbox.image = dockhand-sandbox:latest (default)", line("sandbox.image"));
    }

    @Test
    void projectSettingsThatNarrowShapeARunInAnUntrustedFolder() throws Exception {
        user("{\"model\":\"gpt-4.1\",\"approvalMode\":\"auto-edit\"}");
        project("{\"model\":\"gpt-4.1-mini\",\"approvalMode\":\"plan\"}");
        cli.model.enqueue(
                calls(toolCall("w", "write_file", "{\"path\":\"made.txt\",\"content\":\"x\"}")), answer("Fine."));

        assertEquals(ExitCodes.OK, cli.run("-p", "make it"));

        assertEquals("gpt-4.1-mini", cli.model.takeRequest().get("model").asText());
        assertFalse(Files.exists(cli.workspace.resolve("made.txt")), "plan from the project refused the edit");
        assertTrue(cli.model.takeRequest().toString().contains("the session is in plan mode"));
    }

    @Test
    void apiKeyEnvNamesTheVariableThatHoldsTheKey() throws Exception {
        user("{\"model\":\"m\",\"apiKeyEnv\":\"WORK_OPENAI_KEY\"}");
        cli.variables.put("WORK_OPENAI_KEY", "sk-work");
        cli.model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, cli.run("-p", "x"));

        cli.model.takeRequest();
        assertEquals("Bearer sk-work", cli.model.lastHeader("Authorization"));
    }

    @Test
    void aBadSettingStopsTheRunNamingFileAndKey() throws Exception {
        project("{\"approvalMode\":\"sometimes\"}");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "x"));
        assertEquals(
                List.of("dockhand: " + cli.workspace.resolve(".dockhand/settings.json") + ": 'approvalMode' must"
                        + " be one of plan|default|auto-edit|yolo, not 'sometimes'."),
                cli.errLines());
    }

    @Test
    void aCompressionThresholdOutOfRangeNamesFileAndKey() throws Exception {
        user("{\"compression\":{\"threshold\":1.5}}");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "x"));
        assertEquals(
                List.of("dockhand: " + temp.resolve("home/settings.json") + ": 'compression.threshold' must be a"
                        + " fraction above 0 and at most 1, like 0.7, not 1.5."),
                cli.errLines());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void configShowsTheServerOfTheProviderAModelPrefixNames() throws Exception {
        user("{\"model\":\"anthropic:claude-test\"}");
        cli.variables.remove("DOCKHAND_MODEL");
        cli.variables.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:9");

        assertEquals(ExitCodes.OK, cli.run("config"));

        assertEquals("baseUrl = http://127.0.0.1:9 (environment (ANTHROPIC_BASE_URL))", line("baseUrl"));
        assertEquals("apiKeyEnv = ANTHROPIC_API_KEY (default)", line("apiKeyEnv"));
    }

    @Test
    void aSettingsFileThatIsNotJsonStopsTheRun() throws Exception {
        user("{ \"model\": ");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("-p", "x"));
        assertTrue(
                cli.err
                        .toString()
                        .startsWith("dockhand: " + temp.resolve("home/settings.json")
                                + " is not valid JSON at line 1, column"),
                cli.err.toString());
        assertEquals(0, cli.model.requestCount());
    }
}
