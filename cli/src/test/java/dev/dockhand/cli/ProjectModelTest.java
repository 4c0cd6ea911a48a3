package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.environment.ExitCodes;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An untrusted project's {@code model} applies only when it is a model of the same provider that costs no more than
 * the one that applies without it, for each kind of token, by Dockhand's prices and the user's {@code pricing}: a pull
 * request must not move a CI job from gpt-4.1-mini to o1-pro. A model without a known price is refused.
 */
public class ProjectModelTest extends CliTest {
    private String projectFile;
    private String userFile;

    @BeforeEach
    void setUp() {
        cli.variables.remove("DOCKHAND_MODEL");
        projectFile = cli.workspace.resolve(".dockhand/settings.json").toString();
        userFile = temp.resolve("home/settings.json").toString();
    }

    private List<String> modelLines(String... args) {
        return configLines(List.of("model "), args);
    }

    private String ignored(String model) {
        return "model = " + model + " (ignored from " + projectFile
                + ": it widens what runs or where data goes, and this folder is not trusted)";
    }

    @ParameterizedTest(name = "{0} then {1}: {2}")
    @CsvSource(
            delimiterString = " | ",
            value = {
                // Unknown to the price table: never from an untrusted project.
                "gpt-4.1-mini | o1-pro | ignored",
                // Dearer input and output; dearer output only (gpt-5: 1.25 in, 10 out against 2 and 8).
                "gpt-4.1-mini | gpt-4.1 | ignored",
                "gpt-4.1 | gpt-5 | ignored",
                // Cheaper on every kind of token, with or without the provider's prefix or a date tag.
                "gpt-4.1-mini | gpt-4.1-nano | applies",
                "gpt-4.1 | openai:gpt-4.1-mini | applies",
                "gpt-4.1-2025-04-14 | gpt-4.1-mini-2025-04-14 | applies",
                "anthropic:claude-sonnet-4-5 | anthropic:claude-haiku-4-5 | applies",
                "anthropic:claude-haiku-4-5 | anthropic:claude-opus-4-1 | ignored",
                // Another provider, however cheap.
                "gpt-4.1 | anthropic:claude-haiku-4-5 | ignored",
                // The user's own model again, priced or not.
                "my-model | my-model | applies",
                // A user's model without a price: nothing is known to cost no more.
                "my-model | gpt-4.1-nano | ignored",
            })
    void anUntrustedProjectsModelAppliesWhenItCostsNoMore(String mine, String theirs, String outcome) throws Exception {
        cli.userSettings("{\"model\": \"" + mine + "\"}");
        cli.projectSettings("{\"model\": \"" + theirs + "\"}");

        assertEquals(
                outcome.equals("applies")
                        ? List.of("model = " + theirs + " (" + projectFile + ")")
                        : List.of("model = " + mine + " (" + userFile + ")", ignored(theirs)),
                modelLines());
    }

    @Test
    void theUsersPricingPricesTheirOwnModel() throws Exception {
        cli.userSettings("{\"model\": \"my-model\", \"pricing\": {\"my-model\": {\"input\": 1, \"output\": 2}}}");
        cli.projectSettings("{\"model\": \"gpt-4.1-nano\"}");

        assertEquals(List.of("model = gpt-4.1-nano (" + projectFile + ")"), modelLines());
    }

    @Test
    void aProjectCannotPriceItsOwnModelCheap() throws Exception {
        cli.userSettings("{\"model\": \"gpt-4.1-mini\"}");
        cli.projectSettings("{\"model\": \"o1-pro\", \"pricing\": {\"o1-pro\": {\"input\": 0.01, \"output\": 0.01}}}");

        assertEquals(List.of("model = gpt-4.1-mini (" + userFile + ")", ignored("o1-pro")), modelLines());
    }

    @Test
    void withoutAModelOfTheUsersAProjectCannotChooseOne() throws Exception {
        cli.projectSettings("{\"model\": \"gpt-4.1-nano\"}");

        assertEquals(List.of("model = null (default)", ignored("gpt-4.1-nano")), modelLines());
    }

    @Test
    void aTrustedProjectChoosesAnyModel() throws Exception {
        cli.userSettings("{\"model\": \"gpt-4.1-mini\"}");
        cli.projectSettings("{\"model\": \"o1-pro\"}");

        assertEquals(List.of("model = o1-pro (" + projectFile + ")"), modelLines("--trust-project"));
    }

    @Test
    void aDearerModelIsNamedInTheLineSayingWhatWasIgnored() throws Exception {
        cli.userSettings("{\"model\": \"gpt-4.1-mini\", \"baseUrl\": \"" + cli.model.baseUrl() + "\"}");
        cli.projectSettings("{\"model\": \"o1-pro\"}");
        cli.model.enqueue(answer("ok"));

        assertEquals(ExitCodes.OK, cli.run("-p", "x"));

        assertEquals("gpt-4.1-mini", cli.model.takeRequest().get("model").asText());
        assertTrue(cli.errLines().get(0).contains(": ignored model: this folder is not trusted"), cli.err.toString());
    }
}
