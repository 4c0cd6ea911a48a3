package dev.dockhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An untrusted project may lower the limits that decide how big each request is (how much of a tool's output the model
 * gets, when the conversation is compressed), never raise them: bigger requests are billed, and a context window
 * larger than the model's puts compression off until every request fails for its length.
 */
public class ProjectLimitsTest extends CliTest {
    private static final List<String> KEYS = List.of("truncation.", "compression.");

    private String projectFile;
    private String userFile;
    private String ignored;

    @BeforeEach
    void setUp() {
        projectFile = cli.workspace.resolve(".dockhand/settings.json").toString();
        userFile = temp.resolve("home/settings.json").toString();
        ignored = "(ignored from " + projectFile
                + ": it widens what runs or where data goes, and this folder is not trusted)";
    }

    private void user(String json) throws Exception {
        cli.userSettings(json);
    }

    private void project(String json) throws Exception {
        cli.projectSettings(json);
    }

    /** The truncation and compression lines of {@code dockhand config}, padding squeezed. */
    private List<String> limits(String... args) {
        return configLines(KEYS, args);
    }

    @Test
    void anUntrustedProjectCannotRaiseTheOutputOrCompressionLimits() throws Exception {
        user("{\"truncation\": {\"maxChars\": 20000}}");
        project("{\"truncation\": {\"maxChars\": 1000000000, \"maxLines\": 5000},"
                + " \"compression\": {\"threshold\": 0.99, \"contextWindow\": 1000000000000}}");

        assertEquals(
                List.of(
                        "truncation.maxChars = 20000 (" + userFile + ")",
                        "truncation.maxChars = 1000000000 " + ignored,
                        "truncation.maxLines = 1000 (default)",
                        "truncation.maxLines = 5000 " + ignored,
                        "compression.threshold = 0.7 (default)",
                        "compression.threshold = 0.99 " + ignored,
                        "compression.contextWindow = from the model table (default)",
                        "compression.contextWindow = 1000000000000 " + ignored),
                limits());
    }

    @Test
    void anUntrustedProjectMayLowerThem() throws Exception {
        user("{\"compression\": {\"contextWindow\": 50000}}");
        project("{\"truncation\": {\"maxChars\": 8000, \"maxLines\": 200},"
                + " \"compression\": {\"threshold\": 0.5, \"contextWindow\": 32000}}");

        assertEquals(
                List.of(
                        "truncation.maxChars = 8000 (" + projectFile + ")",
                        "truncation.maxLines = 200 (" + projectFile + ")",
                        "compression.threshold = 0.5 (" + projectFile + ")",
                        "compression.contextWindow = 32000 (" + projectFile + ")"),
                limits());
    }

    @Test
    void anUntrustedProjectsContextWindowCountsUpToTheModelTablesWindow() throws Exception {
        project("{\"compression\": {\"contextWindow\": 200000}}");
        assertEquals(
                List.of("compression.contextWindow = 200000 (" + projectFile + ")"),
                limits("--model", "claude-sonnet-4-5").subList(3, 4));

        project("{\"compression\": {\"contextWindow\": 200001}}");
        cli.out.getBuffer().setLength(0);
        assertEquals(
                List.of(
                        "compression.contextWindow = from the model table (default)",
                        "compression.contextWindow = 200001 " + ignored),
                limits("--model", "anthropic:claude-sonnet-4-5").subList(3, 5));

        // A model the table does not know: the window assumed for it, 128000.
        project("{\"compression\": {\"contextWindow\": 128001}}");
        cli.out.getBuffer().setLength(0);
        assertEquals(
                List.of(
                        "compression.contextWindow = from the model table (default)",
                        "compression.contextWindow = 128001 " + ignored),
                limits("--model", "test-model").subList(3, 5));
    }

    @Test
    void aTrustedProjectSetsThemInFull() throws Exception {
        user("{\"truncation\": {\"maxChars\": 20000}}");
        project("{\"truncation\": {\"maxChars\": 100000}, \"compression\": {\"contextWindow\": 2000000}}");

        assertEquals(
                List.of(
                        "truncation.maxChars = 100000 (" + projectFile + ")",
                        "truncation.maxLines = 1000 (default)",
                        "compression.threshold = 0.7 (default)",
                        "compression.contextWindow = 2000000 (" + projectFile + ")"),
                limits("--trust-project"));
    }
}
