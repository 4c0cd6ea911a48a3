package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.cli.commands.InitCommand;
import dev.dockhand.cli.environment.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Custom commands and {@code /init} in a {@code -p} run: the prompt the model gets, and what the run refuses. */
public class CustomCommandsSingleShotTest extends CliTest {
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

    /** What stderr said, less the line every run without a sandbox has and the tool calls' lines. */
    private List<String> said() {
        return cli.errLines().stream()
                .filter(line -> line.startsWith("dockhand: ") && !line.startsWith("dockhand: --sandbox none"))
                .toList();
    }

    @Test
    void greetTurnsIntoARequestWhoseUserMessageSaysHelloToAlice() throws Exception {
        project("greet.md", "Say hello to $ARGUMENTS");
        cli.model.enqueue(answer("Hello, Alice!"));

        int exit = cli.run("-p", "/greet Alice");

        assertEquals(ExitCodes.OK, exit);
        assertEquals(List.of("user: Say hello to Alice"), messages(cli.model.takeRequest()));
        assertEquals("Hello, Alice!\n", cli.out.toString());
        assertEquals(List.of(), said());
    }

    @Test
    void quotedArgumentsStayTogetherAndNamespacedCommandsRun() throws Exception {
        project("code/review.md", "---\ndescription: Review a file\n---\nReview $1, focusing on $2.$3\n");
        cli.model.enqueue(answer("Reviewed."));

        assertEquals(ExitCodes.OK, cli.run("-p", "/code:review \"src/My File.java\" security"));

        assertEquals(
                List.of("user: Review src/My File.java, focusing on security."), messages(cli.model.takeRequest()));
    }

    @Test
    void aProjectCommandsAllowedToolsRunUnaskedOnlyInATrustedFolder() throws Exception {
        project("notes.md", "---\nallowed-tools: write_file\n---\nWrite the notes.\n");
        String write = "{\"path\":\"notes.txt\",\"content\":\"n\"}";
        cli.model.enqueue(calls(toolCall("w1", "write_file", write)), answer("Could not."));

        int untrusted = cli.run("-p", "/notes");

        assertEquals(ExitCodes.APPROVAL_REQUIRED, untrusted);
        assertFalse(Files.exists(cli.workspace.resolve("notes.txt")));
        assertEquals(
                "dockhand: /notes's allowed-tools (write_file) were not applied: this folder is not trusted, and they"
                        + " would let calls run without asking (trust it with 'dockhand trust').",
                said().get(0));

        cli.model.enqueue(calls(toolCall("w2", "write_file", write)), answer("Written."));
        int trusted = cli.run("--trust-project", "-p", "/notes");

        assertEquals(ExitCodes.OK, trusted);
        assertEquals("n", Files.readString(cli.workspace.resolve("notes.txt")));
    }

    @Test
    void theUsersOwnCommandsAllowedToolsApplyInAnyFolderAndBadEntriesAreSaid() throws Exception {
        user("notes.md", "---\nallowed-tools: write_file, web_fetch(), teleport\n---\nWrite.\n");
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"notes.txt\",\"content\":\"n\"}")), answer("Written."));

        int exit = cli.run("-p", "/notes");

        assertEquals(ExitCodes.OK, exit);
        assertEquals("n", Files.readString(cli.workspace.resolve("notes.txt")));
        assertEquals(
                List.of(
                        "dockhand: /notes: allowed-tools entry 'web_fetch()' was not applied: the pattern in"
                                + " parentheses is empty; leave the parentheses out to cover every call of web_fetch.",
                        "dockhand: /notes: allowed-tools entry 'teleport' names no tool of this session (/tools lists"
                                + " them)."),
                said());
    }

    @Test
    void anAllowedToolsPatternLetsOnlyTheCallsItMatchesRunUnaskedForTheTurn() throws Exception {
        user("hello.md", "---\nallowed-tools: run_shell_command(echo hello*)\n---\nGreet.\n");
        cli.model.enqueue(
                calls(
                        toolCall("s1", "run_shell_command", "{\"command\":\"echo hello > hello.txt\"}"),
                        toolCall("s2", "run_shell_command", "{\"command\":\"touch other.txt\"}")),
                answer("Done."));

        int exit = cli.run("-p", "/hello");

        assertEquals(ExitCodes.APPROVAL_REQUIRED, exit);
        assertEquals("hello\n", Files.readString(cli.workspace.resolve("hello.txt")));
        assertFalse(Files.exists(cli.workspace.resolve("other.txt")));
    }

    @Test
    void aCommandsModelTakesItsTurnAtTheSameServerEvenInAnUntrustedFolderWhenItCostsNoMore() throws Exception {
        cli.variables.put("DOCKHAND_MODEL", "gpt-4.1");
        project("quick.md", "---\nmodel: gpt-4.1-mini\n---\nBe quick.\n");
        cli.model.enqueue(answer("Quick."));

        assertEquals(ExitCodes.OK, cli.run("-p", "/quick"));

        assertEquals("gpt-4.1-mini", cli.model.takeRequest().get("model").asText());
    }

    @Test
    void anUntrustedProjectCommandsDearerOrUnpricedModelIsNotUsed() throws Exception {
        cli.variables.put("DOCKHAND_MODEL", "gpt-4.1-mini");
        project("dear.md", "---\nmodel: gpt-4.1\n---\nThink.\n");
        project("pro.md", "---\nmodel: o1-pro\n---\nThink hard.\n");
        cli.model.enqueue(answer("Thought."), answer("Thought hard."));

        assertEquals(ExitCodes.OK, cli.run("-p", "/dear"));
        assertEquals(ExitCodes.OK, cli.run("-p", "/pro"));

        assertEquals("gpt-4.1-mini", cli.model.takeRequest().get("model").asText());
        assertEquals("gpt-4.1-mini", cli.model.takeRequest().get("model").asText());
        assertEquals(
                List.of(
                        "dockhand: /dear's model gpt-4.1 was not used: this folder is not trusted, and neither"
                                + " Dockhand's prices nor your pricing settings show it costs no more than"
                                + " gpt-4.1-mini.",
                        "dockhand: /pro's model o1-pro was not used: this folder is not trusted, and neither"
                                + " Dockhand's prices nor your pricing settings show it costs no more than"
                                + " gpt-4.1-mini."),
                said());
    }

    @Test
    void anUntrustedProjectCommandCannotSendTheConversationToAnotherProvider() throws Exception {
        cli.variables.put("ANTHROPIC_API_KEY", "sk-ant-test");
        project("away.md", "---\nmodel: anthropic:claude-elsewhere\n---\nGo.\n");
        cli.model.enqueue(answer("Stayed."));

        assertEquals(ExitCodes.OK, cli.run("-p", "/away"));

        assertEquals("test-model", cli.model.takeRequest().get("model").asText());
        assertEquals(
                List.of("dockhand: /away's model anthropic:claude-elsewhere was not used: this folder is not trusted,"
                        + " and it would send the conversation to another server."),
                said());
    }

    @Test
    void anUnusableModelFailsTheUsersCommandButOnlyNotesAnUntrustedProjects() throws Exception {
        cli.variables.remove("ANTHROPIC_API_KEY");
        user("mine.md", "---\nmodel: anthropic:claude-x\n---\nGo.\n");
        project("theirs.md", "---\nmodel: anthropic:claude-x\n---\nGo.\n");
        cli.model.enqueue(answer("Ran anyway."));

        int mine = cli.run("-p", "/mine");
        List<String> saidForMine = said();
        int theirs = cli.run("-p", "/theirs");

        assertEquals(List.of(ExitCodes.CONFIGURATION, ExitCodes.OK), List.of(mine, theirs));
        assertEquals(
                List.of("dockhand: ANTHROPIC_API_KEY is not set: export it with your Anthropic API key."), saidForMine);
        assertEquals(
                List.of(
                        "dockhand: ANTHROPIC_API_KEY is not set: export it with your Anthropic API key.",
                        "dockhand: /theirs's model anthropic:claude-x was not used: ANTHROPIC_API_KEY is not set: export it with your Anthropic API key."),
                said());
        assertEquals("test-model", cli.model.takeRequest().get("model").asText());
    }

    @Test
    void aCommandsModelWithoutAPriceCannotRunUnderMaxCost() throws Exception {
        cli.variables.put("DOCKHAND_MODEL", "gpt-4.1");
        user("local.md", "---\nmodel: my-local-model\n---\nGo.\n");

        assertEquals(ExitCodes.CONFIGURATION, cli.run("--max-cost", "1", "-p", "/local"));

        assertEquals(
                List.of("dockhand: /local runs on my-local-model, whose price Dockhand's table does not know, so"
                        + " --max-cost cannot be kept; add it under \"pricing\" in ~/.dockhand/settings.json."),
                said());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void aCommandWhosePromptComesOutBlankIsRefusedBeforeAnythingIsSent() throws Exception {
        project("ask.md", "---\nargument-hint: QUESTION\n---\n$ARGUMENTS\n");
        project("empty.md", "\n");

        assertEquals(ExitCodes.USAGE, cli.run("-p", "/ask"));
        assertEquals(ExitCodes.USAGE, cli.run("-p", "/empty"));

        assertEquals(
                List.of(
                        "dockhand: /ask needs arguments: its prompt is empty without them (/ask QUESTION).",
                        "dockhand: /empty has no prompt: .dockhand/commands/empty.md is empty."),
                said());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void aBuiltInCommandOfTheReplIsRefusedBeforeAnythingIsSent() {
        int exit = cli.run("-p", "/model other");

        assertEquals(ExitCodes.USAGE, exit);
        assertEquals(
                List.of("dockhand: /model is a command of the interactive session; run dockhand without -p to use it."),
                said());
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void anUnknownCommandIsSentAsTypedWithANoteAndAPathIsJustText() throws Exception {
        cli.model.enqueue(answer("A."), answer("B."));

        assertEquals(ExitCodes.OK, cli.run("-p", "/reveiw Main.java"));
        assertEquals(ExitCodes.OK, cli.run("-p", "/usr/bin/java fails"));

        assertEquals(List.of("user: /reveiw Main.java"), messages(cli.model.takeRequest()));
        assertEquals(List.of("user: /usr/bin/java fails"), messages(cli.model.takeRequest()));
        assertEquals(
                List.of("dockhand: /reveiw is not a command (none in .dockhand/commands/ or "
                        + temp.resolve("home/commands") + "); the prompt was sent as typed."),
                said());
    }

    @Test
    void badCommandFilesAreSaidOnStderrWhenACommandRuns() throws Exception {
        project("bad.md", "---\nmodel: [a\n---\nx\n");
        project("help.md", "Take over /help.\n");
        project("greet.md", "Hello $1");
        cli.model.enqueue(answer("Hi."));

        assertEquals(ExitCodes.OK, cli.run("-p", "/greet Bob"));

        assertEquals(List.of("user: Hello Bob"), messages(cli.model.takeRequest()));
        assertEquals(
                List.of(
                        "dockhand: .dockhand/commands/bad.md was skipped: its front matter is not valid YAML (line 2:"
                                + " while parsing a flow sequence: expected ',' or ']', but got <stream end>).",
                        "dockhand: .dockhand/commands/help.md was skipped: /help is a built-in command, which a file"
                                + " cannot replace; rename the file."),
                said());
    }

    @Test
    void initAsksTheModelToWriteAgentsMdAndItIsWritten() throws Exception {
        cli.model.enqueue(
                calls(toolCall("l1", "list_directory", "{\"path\":\".\"}")),
                calls(toolCall(
                        "w1", "write_file", "{\"path\":\"AGENTS.md\",\"content\":\"# Project\\n\\nBuild: make\\n\"}")),
                answer("I wrote AGENTS.md."));

        int exit = cli.run("--approval-mode", "auto-edit", "-p", "/init");

        assertEquals(ExitCodes.OK, exit);
        assertEquals("# Project\n\nBuild: make\n", Files.readString(cli.workspace.resolve("AGENTS.md")));
        assertEquals(List.of("user: " + InitCommand.prompt(false)), messages(cli.model.takeRequest()));
    }

    @Test
    void initRefusesToReplaceAnExistingFileWithoutForce() throws Exception {
        Files.writeString(cli.workspace.resolve("AGENTS.md"), "Mine.\n");

        int exit = cli.run("--approval-mode", "auto-edit", "-p", "/init");

        assertEquals(ExitCodes.USAGE, exit);
        assertEquals(
                List.of("dockhand: AGENTS.md exists already; run /init --force to replace it (the model reads it"
                        + " first)."),
                said());
        assertEquals(0, cli.model.requestCount());
        assertEquals("Mine.\n", Files.readString(cli.workspace.resolve("AGENTS.md")));
    }

    @Test
    void initWithForceAsksTheModelToReadTheOldFileAndReplaceIt() throws Exception {
        Files.writeString(cli.workspace.resolve("AGENTS.md"), "Mine.\n");
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"AGENTS.md\",\"content\":\"New.\\n\"}")),
                answer("Replaced."));

        assertEquals(ExitCodes.OK, cli.run("--approval-mode", "auto-edit", "-p", "/init --force"));

        assertEquals("New.\n", Files.readString(cli.workspace.resolve("AGENTS.md")));
        assertEquals(List.of("user: " + InitCommand.prompt(true)), messages(cli.model.takeRequest()));
    }

    @Test
    void initThatEndsWithoutWritingTheFileFails() throws Exception {
        cli.model.enqueue(answer("Here is what I would write: …"));

        int exit = cli.run("-p", "/init");

        assertEquals(ExitCodes.PROVIDER_FAILURE, exit);
        assertEquals(
                "dockhand: the model ended its turn without writing AGENTS.md; run /init again, or try another"
                        + " model.",
                cli.errLines().get(cli.errLines().size() - 1));
        assertFalse(Files.exists(cli.workspace.resolve("AGENTS.md")));
    }

    @Test
    void initTakesNoOtherArgument() {
        assertEquals(ExitCodes.USAGE, cli.run("-p", "/init please"));

        assertEquals(
                List.of("dockhand: /init takes no argument but --force (replace AGENTS.md without asking)."), said());
    }
}
