package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import dev.dockhand.core.testing.ScriptedModel;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The REPL's questions that guard the user: trusting a folder, a protected path, and Ctrl-C at a question. */
public class ReplSafetyTest extends CliTest {
    private static final String CTRL_C = "\u0003";

    private ScriptedModel projectServer;

    @BeforeEach
    void setUp() throws Exception {
        projectServer = new ScriptedModel();
        cli.variables.remove("OPENAI_BASE_URL");
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(temp.resolve("home/settings.json"), "{\"baseUrl\": \"" + cli.model.baseUrl() + "\"}");
    }

    @AfterEach
    void tearDown() {
        projectServer.close();
    }

    private void projectPointsElsewhere() throws Exception {
        Files.createDirectories(cli.workspace.resolve(".dockhand"));
        Files.writeString(
                cli.workspace.resolve(".dockhand/settings.json"), "{\"baseUrl\": \"" + projectServer.baseUrl() + "\"}");
    }

    private JsonNode trustedFolders() throws Exception {
        return Json.read(Files.readString(temp.resolve("home/settings.json"))).get("trustedFolders");
    }

    @Test
    void yesTrustsTheFolderRemembersItAndAppliesItsSettings() throws Exception {
        projectPointsElsewhere();
        projectServer.enqueue(answer("From the project's server."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.await("y trust this folder");
            assertEquals(
                    List.of(
                            "? Trust this folder's settings?",
                            "  " + cli.workspace + "/.dockhand/settings.json sets:",
                            "    baseUrl = " + projectServer.baseUrl()),
                    repl.rowsFrom("? Trust").subList(0, 3));
            repl.type("y");
            repl.await("✓ trusted " + cli.workspace);
            repl.awaitPrompt().submit("hello");
            repl.await("From the project's server.");
        }
        assertEquals(Json.read("{\"" + cli.workspace + "\": true}"), trustedFolders());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void noKeepsTheFolderUntrustedAndIsRemembered() throws Exception {
        projectPointsElsewhere();
        cli.model.enqueue(answer("From the user's server."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.await("y trust this folder");
            repl.type("n");
            repl.await("✗ not trusted:");
            repl.awaitPrompt().submit("hello");
            repl.await("From the user's server.");
        }
        assertEquals(Json.read("{\"" + cli.workspace + "\": false}"), trustedFolders());
        assertEquals(0, projectServer.requestCount());
    }

    @Test
    void aDecidedFolderIsNotAskedAgain() throws Exception {
        projectPointsElsewhere();
        assertEquals(ExitCodes.OK, cli.run("untrust"));
        cli.model.enqueue(answer("Asked nothing."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt().submit("hello");
            repl.await("Asked nothing.");
            assertFalse(repl.screen().contains("Trust this folder"), repl.screen());
        }
    }

    @Test
    void aProtectedPathIsAskedAboutEvenInYoloWithTheReasonAndNoSessionOption() throws Exception {
        Files.createDirectories(cli.workspace.resolve(".git/hooks"));
        cli.model.enqueue(
                calls(toolCall("h", "write_file", "{\"path\":\".git/hooks/pre-commit\",\"content\":\"exit 1\\n\"}")),
                answer("Left it."));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("add a hook");
            repl.await("y allow this call · n deny · Esc stop the turn");
            List<String> question = repl.rowsFrom("? Allow write_file?");
            assertEquals(
                    List.of(
                            "  ! .git/hooks is protected: git runs the hooks in it on your machine. Only the user's own yes to",
                            "    this call lets a tool change it, whatever the approval mode.",
                            "  y allow this call · n deny · Esc stop the turn"),
                    question.subList(6, 9),
                    repl.screen());
            repl.type("a"); // not an answer here: no "for this session" for a protected path
            repl.type("n");
            repl.await("reason for the model");
            repl.type("\r");
            repl.await("Left it.");
        }
        assertFalse(Files.exists(cli.workspace.resolve(".git/hooks/pre-commit")));
    }

    @Test
    void ctrlCAtAnApprovalQuestionCancelsTheTurnAsEscDoes() throws Exception {
        cli.model.enqueue(calls(
                toolCall("1", "write_file", "{\"path\":\"one.txt\",\"content\":\"1\"}"),
                toolCall("2", "write_file", "{\"path\":\"two.txt\",\"content\":\"2\"}")));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("write two files");
            repl.await("? Allow write_file?");
            repl.type(CTRL_C);
            repl.await("⊘ cancelled");
            repl.awaitPrompt();
            assertFalse(repl.screen().contains("two.txt"), repl.screen());
        }
        assertFalse(Files.exists(cli.workspace.resolve("one.txt")));
        assertFalse(Files.exists(cli.workspace.resolve("two.txt")));
    }
}
