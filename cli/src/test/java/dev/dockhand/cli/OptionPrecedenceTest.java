package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.config.Option;
import dev.dockhand.cli.environment.ExitCodes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One option through every level of the one precedence (Configuration.key): command line > environment > trusted
 * project > user > default, as {@code dockhand config} shows it; and that {@code dockhand config} prints the table.
 */
public class OptionPrecedenceTest extends CliTest {
    @BeforeEach
    void setUp() throws Exception {
        cli.variables.remove("DOCKHAND_MODEL");
        cli.variables.remove("OPENAI_BASE_URL");
    }

    private void user(String json) throws Exception {
        cli.userSettings(json);
    }

    private void project(String json) throws Exception {
        cli.projectSettings(json);
    }

    /** The {@code provider} line of {@code dockhand config}, its padding squeezed. */
    private String provider(String... args) {
        return configLines(List.of("provider "), args).stream().findFirst().orElse("");
    }

    @Test
    void theCommandLineWinsOverEveryOtherLevel() throws Exception {
        user("{\"provider\":\"gemini\"}");
        project("{\"provider\":\"ollama\"}");
        cli.variables.put("DOCKHAND_PROVIDER", "openai");

        assertEquals(
                "provider = anthropic (command line (--provider))",
                provider("--trust-project", "--provider", "anthropic"));
    }

    @Test
    void theEnvironmentWinsOverTheFiles() throws Exception {
        user("{\"provider\":\"gemini\"}");
        project("{\"provider\":\"ollama\"}");
        cli.variables.put("DOCKHAND_PROVIDER", "anthropic");

        assertEquals("provider = anthropic (environment (DOCKHAND_PROVIDER))", provider("--trust-project"));
    }

    @Test
    void aTrustedProjectWinsOverTheUser() throws Exception {
        user("{\"provider\":\"gemini\"}");
        project("{\"provider\":\"ollama\"}");

        assertEquals(
                "provider = ollama (" + cli.workspace.resolve(".dockhand/settings.json") + ")",
                provider("--trust-project"));
    }

    @Test
    void theUserWinsOverTheDefaultAndOverAnUntrustedProjectThatWouldWiden() throws Exception {
        user("{\"provider\":\"gemini\"}");
        project("{\"provider\":\"ollama\"}");

        assertEquals("provider = gemini (" + temp.resolve("home/settings.json") + ")", provider());
    }

    @Test
    void theDefaultCountsWhenNothingSetsIt() {
        assertEquals("provider = openai (default)", provider());
    }

    @Test
    void configPrintsEveryKeyOfTheTableInItsOrder() {
        assertEquals(ExitCodes.OK, cli.run("config"));

        List<String> printed = cli.out
                .toString()
                .lines()
                .map(line -> line.substring(0, line.indexOf(' ')))
                .toList();
        List<String> expected = new ArrayList<>();
        for (Option<?> option : Option.all()) {
            if (option.key != null) {
                expected.add(option.key);
            }
        }
        expected.addAll(List.of("protectedPaths.add", "protectedPaths.allow", "trust"));

        assertEquals(expected, printed);
    }

    @Test
    void configOfAFolderWithoutSettingsShowsEveryDefault() {
        assertEquals(ExitCodes.OK, cli.run("config"));

        assertEquals(
                """
                provider                  = openai    (default)
                pricing                   = {}    (default)
                model                     = null    (default)
                baseUrl                   = https://api.openai.com/v1    (default)
                apiKeyEnv                 = OPENAI_API_KEY    (default)
                approvalMode              = default    (default)
                maxTurns                  = 100    (default)
                maxCost                   = null    (default)
                reasoningEffort           = (the provider's default)    (default)
                sandbox.kind              = none    (command line (--sandbox))
                sandbox.image             = dockhand-sandbox:latest    (default)
                sandbox.network           = none    (default)
                sandbox.memory            = 2g    (default)
                sandbox.cpus              = 2.0    (default)
                sandbox.pids              = 512    (default)
                sandbox.env               = []    (default)
                truncation.maxChars       = 30000    (default)
                truncation.maxLines       = 1000    (default)
                compression.threshold     = 0.7    (default)
                compression.contextWindow = from the model table    (default)
                tools.allowed             = []    (default)
                tools.core                = []    (default)
                tools.excluded            = []    (default)
                webFetch.allowedHosts     = []    (default)
                protectedPaths.add        = []    (command line or default)
                protectedPaths.allow      = []    (command line or default)
                trust                     = not trusted (never decided; dockhand trust)    (WORKSPACE)
                """,
                cli.out.toString().replace(cli.workspace.toString(), "WORKSPACE"));
    }
}
