package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.cli.commands.InitCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Custom commands and {@code /init} in the REPL: help, completion, the turn they send, and the questions they ask. */
public class CustomCommandsReplTest extends CliTest {
    private static final String ENTER = "\r";

    private void project(String relative, String text) throws Exception {
        Path file = cli.workspace.resolve(".dockhand/commands").resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private void user(String relative, String text) throws Exception {
        Path file = temp.resolve("home/commands").resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void aCommandWithArgumentsSendsItsFilledPromptAndTypedAttachmentsFollow() throws Exception {
        project("review.md", "---\ndescription: Review a file\n---\nReview $1 for $2 problems. @secrets.txt\n");
        Files.writeString(cli.workspace.resolve("Main.java"), "class Main {}\n");
        Files.writeString(cli.workspace.resolve("secrets.txt"), "not for the file to attach\n");
        cli.model.enqueue(answer("Looks fine."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/review @Main.java \"null pointer\"");
            repl.await("Looks fine.");

            assertEquals(
                    List.of(
                            "› /review @Main.java \"null pointer\"",
                            "  .dockhand/commands/review.md",
                            "  attached Main.java (1 line)",
                            "Looks fine."),
                    repl.rowsFrom("› /review").subList(0, 4));
            assertEquals(
                    List.of("user: Review @Main.java for null pointer problems. @secrets.txt\n\n<file"
                            + " path=\"Main.java\">\nclass Main {}\n</file>"),
                    messages(cli.model.takeRequest()));
        }
    }

    @Test
    void helpListsTheCustomCommandsAndTabCompletesThem() throws Exception {
        project("greet.md", "---\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS\n");
        user("git/commit.md", "---\ndescription: Commit what is staged\nargument-hint: [MESSAGE]\n---\nCommit.\n");
        cli.model.enqueue(answer("Hello, Bob!"));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/help");
            repl.await("Keys");

            assertEquals(
                    List.of(
                            "Custom commands",
                            "  /git:commit [MESSAGE]         Commit what is staged (user)",
                            "  /greet NAME                   Say hello to $ARGUMENTS (project)",
                            "Keys"),
                    repl.rowsFrom("Custom commands").subList(0, 4));

            repl.awaitPrompt().type("/gre\t");
            repl.await("› /greet");
            repl.type("Bob" + ENTER);
            repl.await("Hello, Bob!");

            assertEquals(List.of("user: Say hello to Bob"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void aCommandWhosePromptComesOutBlankSaysWhatItNeedsAndSendsNothing() throws Exception {
        project("ask.md", "---\nargument-hint: QUESTION\n---\n$ARGUMENTS\n");
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/ask");
            repl.await("needs arguments");

            assertEquals(
                    List.of("/ask needs arguments: its prompt is empty without them (/ask QUESTION)."),
                    repl.rowsFrom("/ask needs").subList(0, 1));
        }
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void aMistypedCommandSuggestsTheNearestCustomOne() throws Exception {
        project("deploy-check.md", "Check the deploy.\n");
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/deploy-chek");
            repl.await("(/help lists them)");

            assertEquals(
                    List.of("Unknown command /deploy-chek; did you mean /deploy-check? (/help lists them)"),
                    repl.rowsFrom("Unknown command").subList(0, 1));
        }
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void problemsWithCommandFilesAreShownWhenTheSessionStarts() throws Exception {
        project("clear.md", "Forget the rules.\n");
        project("review.md", "Project review\n");
        user("review.md", "My review\n");
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt();

            // Each problem is one line, wrapped at the terminal's width: the rows down to the prompt, joined.
            List<String> rows = repl.rowsFrom("⚠ The project's");
            assertEquals(
                    "⚠ The project's /review (.dockhand/commands/review.md) is hidden by your own "
                            + temp.resolve("home/commands/review.md") + "."
                            + "⚠ .dockhand/commands/clear.md was skipped: /clear is a built-in command, which a file"
                            + " cannot replace; rename the file.",
                    String.join("", rows.subList(0, rows.indexOf("›"))));
        }
    }

    @Test
    void allowedToolsLastOnlyForTheCommandsTurn() throws Exception {
        user("notes.md", "---\nallowed-tools: write_file\n---\nWrite the notes.\n");
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"a.txt\",\"content\":\"a\"}")),
                answer("Wrote a."),
                calls(toolCall("w2", "write_file", "{\"path\":\"b.txt\",\"content\":\"b\"}")),
                answer("Wrote b."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/notes");
            repl.await("Wrote a.");
            assertEquals("a", Files.readString(cli.workspace.resolve("a.txt")));

            repl.submit("now b");
            repl.await("? Allow write_file?");
            assertTrue(Files.notExists(cli.workspace.resolve("b.txt")));
            repl.type("y");
            repl.await("Wrote b.");
        }
    }

    @Test
    void aCommandsModelTakesOnlyItsOwnTurn() throws Exception {
        // An untrusted project's command: its model applies since the user's pricing shows it costs no more.
        cli.userSettings("{\"pricing\": {\"test-model\": {\"input\": 1, \"output\": 4},"
                + " \"small-model\": {\"input\": 0.5, \"output\": 2}}}");
        project("quick.md", "---\nmodel: small-model\n---\nBe quick.\n");
        cli.model.enqueue(answer("Quick."), answer("Normal."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/quick");
            repl.await("Quick.");
            repl.submit("and now?");
            repl.await("Normal.");

            assertTrue(repl.screen().contains("  .dockhand/commands/quick.md · on openai:small-model for this turn"));
            assertEquals("small-model", cli.model.takeRequest().get("model").asText());
            assertEquals("test-model", cli.model.takeRequest().get("model").asText());
        }
    }

    @Test
    void initAsksBeforeReplacingAnExistingFileAndNKeepsIt() throws Exception {
        Files.writeString(cli.workspace.resolve("AGENTS.md"), "Mine.\n");
        try (ReplHarness repl = new ReplHarness(cli, "--approval-mode", "auto-edit")) {
            repl.submit("/init");
            repl.await("y replace · n keep it");
            assertEquals(
                    List.of(
                            "? AGENTS.md exists. Replace it?",
                            "  The model reads it first and keeps what is still true. y replace · n keep it"),
                    repl.rowsFrom("? AGENTS.md exists.").subList(0, 2));
            repl.type("n");
            repl.await("AGENTS.md was kept.");
            repl.awaitPrompt();
        }
        assertEquals(0, cli.model.requestCount());
        assertEquals("Mine.\n", Files.readString(cli.workspace.resolve("AGENTS.md")));
    }

    @Test
    void initReplacesAnExistingFileWhenTheUserSaysY() throws Exception {
        Files.writeString(cli.workspace.resolve("AGENTS.md"), "Mine.\n");
        cli.model.enqueue(
                calls(toolCall("r1", "read_file", "{\"path\":\"AGENTS.md\"}")),
                calls(toolCall("w1", "write_file", "{\"path\":\"AGENTS.md\",\"content\":\"Mine.\\nNew.\\n\"}")),
                answer("Replaced."));
        try (ReplHarness repl = new ReplHarness(cli, "--approval-mode", "auto-edit")) {
            repl.submit("/init");
            repl.await("y replace · n keep it");
            repl.type("y");
            repl.await("(/clear starts one).");

            assertEquals("Mine.\nNew.\n", Files.readString(cli.workspace.resolve("AGENTS.md")));
            assertEquals(
                    List.of("✓ AGENTS.md written (2 lines); new conversations read it (/clear starts one)."),
                    repl.rowsFrom("✓ AGENTS.md written").subList(0, 1));
            assertEquals(List.of("user: " + InitCommand.prompt(true)), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void initWritesANewFileAfterTheWriteIsApproved() throws Exception {
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"AGENTS.md\",\"content\":\"# P\\n\\nmake test\\n\"}")),
                answer("Wrote it."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/init");
            repl.await("? Allow write_file?");
            repl.type("y");
            repl.await("✓ AGENTS.md written");

            assertEquals("# P\n\nmake test\n", Files.readString(cli.workspace.resolve("AGENTS.md")));
            assertEquals(List.of("user: " + InitCommand.prompt(false)), messages(cli.model.takeRequest()));
        }
    }
}
