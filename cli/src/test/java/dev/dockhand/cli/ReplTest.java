package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.done;
import static dev.dockhand.core.testing.Sse.finish;
import static dev.dockhand.core.testing.Sse.reply;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

public class ReplTest extends CliTest {
    private static final String ENTER = "\r";
    private static final String CTRL_C = "\u0003";
    private static final String CTRL_O = "\u000f";

    @Test
    void rendersAStreamedMarkdownAnswer() throws Exception {
        cli.model.enqueue(answer("# Result\n\nIt is **done**, see `Main.java`.\n\n- first\n- second\n\n"
                + "```java\nint x = 1;\n```\nRead [the guide](https://example.com/guide)."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("what happened?");
            repl.await("the guide");
            repl.awaitPrompt();

            assertEquals(
                    List.of(
                            "› what happened?",
                            "Result",
                            "",
                            "It is done, see Main.java.",
                            "",
                            "• first",
                            "• second",
                            "",
                            "  java",
                            "│ int x = 1;",
                            "Read the guide (https://example.com/guide)."),
                    repl.rowsFrom("› what happened?").subList(0, 11));
            assertEquals(List.of("user: what happened?"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void anEmptyReplyIsNotedAndTheSessionCarriesOn() throws Exception {
        cli.model.enqueue(reply(finish("stop"), done()), answer("Here now."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("hello?");
            repl.await("⚠ the model's reply was empty");
            repl.submit("hello again");
            repl.await("Here now.");

            assertEquals(
                    List.of(
                            "› hello?",
                            "⚠ the model's reply was empty (no text and no tool call); ask again, or try another"
                                    + " model."),
                    repl.rowsFrom("› hello?").subList(0, 2));
            cli.model.takeRequest();
            assertEquals(
                    List.of("user: hello?", "assistant: ", "user: hello again"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void anEditAsksWithItsDiffAndYRunsIt() throws Exception {
        Files.writeString(cli.workspace.resolve("a.txt"), "one\ntwo\n");
        cli.model.enqueue(
                calls(toolCall("e1", "edit", "{\"path\":\"a.txt\",\"old_string\":\"two\",\"new_string\":\"deux\"}")),
                answer("Changed."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("translate");
            repl.await("n deny · Esc stop the turn");
            assertEquals(
                    List.of(
                            "? Allow edit?",
                            "  a.txt",
                            "  --- a/a.txt",
                            "  +++ b/a.txt",
                            "  @@ -1,2 +1,2 @@",
                            "   one",
                            "  -two",
                            "  +deux",
                            "  y allow once · a allow edit for this session · n deny · Esc stop the turn"),
                    repl.rowsFrom("? Allow edit?").subList(0, 9));
            assertEquals("one\ntwo\n", Files.readString(cli.workspace.resolve("a.txt")));

            repl.type("q"); // not an answer: nothing happens
            repl.type("y");
            repl.await("Changed.");

            assertEquals("one\ndeux\n", Files.readString(cli.workspace.resolve("a.txt")));
            assertTrue(repl.screen().contains("  ✓ allowed once"), repl.screen());
            cli.model.takeRequest();
            List<String> second = messages(cli.model.takeRequest());
            assertTrue(second.get(2).startsWith("tool: "), second.toString());
        }
    }

    @Test
    void aDenialWithAReasonReachesTheModel() throws Exception {
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"x.txt\",\"content\":\"x\"}")), answer("Understood."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("write x");
            repl.await("y allow once");
            repl.type("n");
            repl.await("reason for the model");
            repl.type("use edit instead" + ENTER);
            repl.await("Understood.");

            assertTrue(repl.screen().contains("  ✗ denied: use edit instead"), repl.screen());
            cli.model.takeRequest();
            assertEquals(
                    List.of(
                            "user: write x",
                            "assistant: ",
                            "tool: The write_file call was not run: the user denied it and said: use edit instead"),
                    messages(cli.model.takeRequest()));
            assertTrue(Files.notExists(cli.workspace.resolve("x.txt")));
        }
    }

    @Test
    void ctrlCDuringARunningCommandCancelsTheTurnAndTheNextRequestIsValid() throws Exception {
        cli.model.enqueue(calls(
                toolCall("s1", "run_shell_command", "{\"command\":\"echo started; sleep 100; touch finished\"}")));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("wait a bit");
            repl.await("    started");
            long pressed = System.nanoTime();
            repl.type(CTRL_C);
            repl.await("⊘ cancelled;");
            long tookMillis = (System.nanoTime() - pressed) / 1_000_000;

            cli.model.enqueue(answer("Carrying on."));
            repl.submit("next");
            repl.await("Carrying on.");

            assertTrue(tookMillis < 5_000, "the cancel took " + tookMillis + " ms");
            cli.model.takeRequest();
            List<String> next = messages(cli.model.takeRequest()); // validated: every call answered once
            assertEquals("user: next", next.get(next.size() - 1));
            assertTrue(next.get(2).startsWith("tool: "), next.toString());
            assertTrue(Files.notExists(cli.workspace.resolve("finished")));
        }
    }

    @Test
    void historyIsKeptAcrossTwoRuns() throws Exception {
        cli.model.enqueue(answer("One."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("the first prompt");
            repl.await("One.");
            repl.awaitPrompt().type("\u0004");
            assertEquals(0, repl.exitCode());
        }
        cli.model.takeRequest();
        assertTrue(Files.readString(cli.temp.resolve("home/history")).contains("the first prompt"));

        try (ReplHarness repl = new ReplHarness(cli)) {
            cli.model.enqueue(answer("Again."));
            repl.submit("\033OA"); // up arrow as xterm sends it, then Enter
            repl.await("Again.");
            assertEquals(
                    "the first prompt",
                    cli.model
                            .takeRequest()
                            .get("messages")
                            .get(1)
                            .get("content")
                            .asText());
        }
    }

    @Test
    void atPathAttachesTheFileToTheMessage() throws Exception {
        Files.writeString(cli.workspace.resolve("notes.txt"), "remember the milk\n");
        cli.model.enqueue(answer("Milk."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("what does @notes.txt say?");
            repl.await("Milk.");

            assertTrue(repl.screen().contains("  attached notes.txt (1 line)"), repl.screen());
            assertEquals(
                    List.of("user: what does @notes.txt say?\n\n<file path=\"notes.txt\">\nremember the milk\n</file>"),
                    messages(cli.model.takeRequest()));
        }
    }

    @Test
    void aTrailingBackslashContinuesTheMessageOnTheNextLine() throws Exception {
        cli.model.enqueue(answer("Two lines."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("first line\\");
            repl.await("…");
            repl.type("second line" + ENTER);
            repl.await("Two lines.");

            assertEquals(List.of("user: first line\nsecond line"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void ctrlJAndAltEnterStartANewLineInsteadOfSending() throws Exception {
        cli.model.enqueue(answer("Three lines."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt().type("one\ntwo\u001B\rthree" + ENTER);
            repl.await("Three lines.");

            assertEquals(List.of("user: one\ntwo\nthree"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void anAtPathOutsideTheWorkspaceIsNotAttached() throws Exception {
        Files.writeString(temp.resolve("secret.txt"), "the secret\n");
        cli.model.enqueue(answer("Nothing attached."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("read @../secret.txt");
            repl.await("Nothing attached.");

            assertTrue(repl.screen().contains("  @../secret.txt was not attached:"), repl.screen());
            assertEquals(List.of("user: read @../secret.txt"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void aFetchAsksWithItsAddress() throws Exception {
        cli.model.enqueue(
                calls(toolCall("f1", "web_fetch", "{\"url\":\"http://127.0.0.1:9/page\",\"prompt\":\"x\"}")),
                answer("Not fetched."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("fetch it");
            repl.await("y allow once");

            assertEquals(
                    List.of("? Allow web_fetch?", "  fetch http://127.0.0.1:9/page"),
                    repl.rowsFrom("? Allow web_fetch?").subList(0, 2));
            repl.type("n");
            repl.await("reason for the model");
            repl.type(ENTER);
            repl.await("Not fetched.");
        }
    }

    @Test
    void bangRunsACommandWithoutTellingTheModel() throws Exception {
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("!echo hi from the shell");
            repl.await("exit 0");

            assertEquals(
                    List.of("$ echo hi from the shell", "hi from the shell", "exit 0"),
                    repl.rowsFrom("$ echo hi").subList(0, 3));
            assertEquals(0, cli.model.requestCount());
        }
    }

    @Test
    void slashCommandsAnswerWithoutTheModel() throws Exception {
        Files.writeString(cli.workspace.resolve("AGENTS.md"), "Always write tests.\n");
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/help");
            repl.await("/compress");
            repl.submit("/tools");
            repl.await("read_file");
            repl.submit("/approval-mode auto-edit");
            repl.await("Approval mode: auto-edit");
            repl.submit("/model other-model");
            repl.await("Model: openai:other-model");
            repl.submit("/model anthropic:claude-test");
            repl.await("ANTHROPIC_API_KEY is not set");
            repl.submit("/memory show");
            repl.await("Always write tests.");
            repl.submit("/stats");
            repl.await("Model requests   0");
            repl.submit("/hlep");
            repl.await("Unknown command /hlep; did you mean /help?");

            String screen = repl.screen();
            assertTrue(screen.contains("edit                edit     "), screen);
            assertTrue(screen.contains("── " + cli.workspace.resolve("AGENTS.md")), screen);
            assertTrue(screen.contains("openai:other-model · auto-edit (Shift-Tab) · sandbox none"), screen);
            repl.submit("/quit");
            assertEquals(0, repl.exitCode());
        }
        assertEquals(0, cli.model.requestCount());
    }

    @Test
    void psListsTheCommandsTheModelStartedInTheBackground() throws Exception {
        cli.model.enqueue(
                calls(toolCall(
                        "b1",
                        "run_shell_command",
                        "{\"command\":\"echo serving; sleep 1000\",\"run_in_background\":true}")),
                answer("It serves."),
                calls(toolCall("b2", "run_shell_command", "{\"command\":\"exit 3\",\"run_in_background\":true}")),
                answer("It ended."));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("/ps");
            repl.await("No command was started in the background in this session.");
            repl.submit("serve it");
            repl.await("It serves.");
            repl.submit("and that");
            repl.await("It ended.");

            repl.submit("/ps");
            repl.await("/background/bg-2.txt");

            List<String> rows = repl.rowsFrom("bg-1 ").subList(0, 4);
            assertTrue(rows.get(0).matches("bg-1   running +[0-9.]+ m?s +echo serving; sleep 1000"), rows.toString());
            assertTrue(rows.get(1).matches(" {7}/.*/background/bg-1\\.txt"), rows.toString());
            assertTrue(rows.get(2).matches("bg-2   (running|exited 3) .*exit 3"), rows.toString());
            assertTrue(rows.get(3).endsWith("/background/bg-2.txt"), rows.toString());
        }
    }

    @Test
    void theNextRequestUsesTheModelChosenWithSlashModel() throws Exception {
        cli.model.enqueue(answer("Hi."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/model bigger-model");
            repl.await("Model: openai:bigger-model");
            repl.submit("hello");
            repl.await("Hi.");

            assertEquals("bigger-model", cli.model.takeRequest().get("model").asText());
        }
    }

    @Test
    void shiftTabCyclesTheApprovalModeButNeverIntoYolo() throws Exception {
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt();
            assertTrue(repl.screen().endsWith("default (Shift-Tab) · sandbox none"), repl.screen());
            repl.type("\033[Z");
            repl.await("auto-edit (Shift-Tab)");
            repl.type("\033[Z");
            repl.await("plan (Shift-Tab)");
            repl.type("\033[Z");
            repl.await("default (Shift-Tab)");
        }
    }

    @Test
    void clearStartsANewConversation() throws Exception {
        cli.model.enqueue(answer("First."), answer("Second."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("one");
            repl.await("First.");
            repl.submit("/clear");
            repl.await("New conversation");
            repl.submit("two");
            repl.await("Second.");

            cli.model.takeRequest();
            assertEquals(List.of("user: two"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void ctrlCTwiceOnAnEmptyLineQuits() throws Exception {
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt().type(CTRL_C);
            repl.await("Press Ctrl-C again to quit");
            repl.awaitPrompt().type(CTRL_C);
            assertEquals(0, repl.exitCode());
        }
    }

    @Test
    void callsOfOneRoundAreAskedOneAfterAnotherAndNDeniesOnlyThatOne() throws Exception {
        cli.model.enqueue(
                calls(
                        toolCall("w1", "write_file", "{\"path\":\"a.txt\",\"content\":\"a\"}"),
                        toolCall("w2", "write_file", "{\"path\":\"b.txt\",\"content\":\"b\"}")),
                answer("Two of two."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("write both");
            repl.await("+++ b/a.txt");
            repl.type("n");
            repl.await("reason for the model");
            repl.type(ENTER);
            repl.await("+++ b/b.txt");
            repl.type("y");
            repl.await("Two of two.");

            assertTrue(Files.notExists(cli.workspace.resolve("a.txt")));
            assertTrue(Files.exists(cli.workspace.resolve("b.txt")));
            cli.model.takeRequest();
            List<String> next = messages(cli.model.takeRequest());
            assertEquals("tool: The write_file call was not run: the user denied it.", next.get(2));
        }
    }

    // Issue 34's done-when; gemini-cli coreToolScheduler.test.ts: "should cancel all tools in a batch when one is
    // cancelled via confirmation".
    @Test
    void oneEscAtTheFirstOfThreeQuestionsCancelsAllThree() throws Exception {
        cli.model.enqueue(
                calls(
                        toolCall("w1", "write_file", "{\"path\":\"a.txt\",\"content\":\"a\"}"),
                        toolCall("w2", "write_file", "{\"path\":\"b.txt\",\"content\":\"b\"}"),
                        toolCall("w3", "write_file", "{\"path\":\"c.txt\",\"content\":\"c\"}")),
                answer("Left them."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("write three");
            repl.await("+++ b/a.txt");
            repl.type("\u001B");
            repl.await("⊘ cancelled");
            repl.awaitPrompt();
            repl.submit("never mind");
            repl.await("Left them.");

            assertEquals(1, repl.screen().split("\\? Allow write_file\\?", -1).length - 1, repl.screen());
            for (String file : List.of("a.txt", "b.txt", "c.txt")) {
                assertTrue(Files.notExists(cli.workspace.resolve(file)), file);
            }
            cli.model.takeRequest();
            List<String> next = messages(cli.model.takeRequest());
            assertEquals(
                    List.of(
                            "tool: The user cancelled this call at its approval question, and the rest of the turn"
                                    + " with it; it did not run.",
                            "tool: The user cancelled this call before it started.",
                            "tool: The user cancelled this call before it started.",
                            "user: never mind"),
                    next.subList(2, 6));
        }
    }

    @Test
    void allowingAToolForTheSessionStopsTheQuestions() throws Exception {
        cli.model.enqueue(
                calls(toolCall("w1", "write_file", "{\"path\":\"a.txt\",\"content\":\"a\"}")),
                answer("First."),
                calls(toolCall("w2", "write_file", "{\"path\":\"b.txt\",\"content\":\"b\"}")),
                answer("Second."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("write a");
            repl.await("? Allow write_file?");
            repl.type("a");
            repl.await("First.");
            repl.submit("write b");
            repl.await("Second.");

            assertEquals(1, repl.screen().split("\\? Allow write_file\\?", -1).length - 1, repl.screen());
            assertTrue(Files.exists(cli.workspace.resolve("b.txt")));
        }
    }

    @Test
    void resumeContinuesAnEarlierSessionWithItsHistory() throws Exception {
        cli.model.enqueue(answer("Noted."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("remember 42");
            repl.await("Noted.");
            repl.awaitPrompt().type("\u0004");
            assertEquals(0, repl.exitCode());
        }
        cli.model.takeRequest();

        cli.model.enqueue(answer("It was 42."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("/resume latest");
            repl.await("Resumed session");
            repl.submit("which number?");
            repl.await("It was 42.");

            assertTrue(repl.screen().contains("1 turns; last prompt: remember 42"), repl.screen());
            assertEquals(
                    List.of("user: remember 42", "assistant: Noted.", "user: which number?"),
                    messages(cli.model.takeRequest()));
        }
    }

    @Test
    void compressSummarisesTheOlderTurnsOnDemand() throws Exception {
        cli.model.enqueue(answer("A1."), answer("A2."), answer("A3."), answer("They said one."), answer("A4."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            for (String prompt : List.of("one", "two", "three")) {
                repl.submit(prompt);
                repl.await("A" + (prompt.equals("one") ? 1 : prompt.equals("two") ? 2 : 3) + ".");
            }
            repl.submit("/compress");
            repl.await("↯ compressed 2 older messages into a summary");
            repl.submit("four");
            repl.await("A4.");
            // The answer shows as it streams; the transcript has it once the turn is over.
            repl.awaitPrompt();

            // The transcript keeps the whole history, and notes the compression.
            Path transcript;
            try (var files = Files.walk(cli.temp.resolve("home/sessions"))) {
                transcript = files.filter(file -> file.toString().endsWith(".jsonl"))
                        .findFirst()
                        .orElseThrow();
            }
            List<String> types = Files.readAllLines(transcript).stream()
                    .map(line -> dev.dockhand.core.Json.read(line))
                    .filter(record -> !record.path("type").asText().equals("usage"))
                    .map(record -> record.path("type").asText() + " "
                            + record.path("text").asText())
                    .toList();
            assertEquals(
                    List.of(
                            "session ",
                            "user one",
                            "assistant A1.",
                            "user two",
                            "assistant A2.",
                            "user three",
                            "assistant A3.",
                            "compressed ",
                            "user four",
                            "assistant A4."),
                    types);

            for (int i = 0; i < 4; i++) {
                cli.model.takeRequest();
            }
            assertEquals(
                    List.of(
                            "user: " + dev.dockhand.core.conversation.Conversation.SUMMARY_HEADER
                                    + "\n\nThey said one.",
                            "assistant: " + dev.dockhand.core.conversation.Conversation.SUMMARY_ACKNOWLEDGED,
                            "user: two",
                            "assistant: A2.",
                            "user: three",
                            "assistant: A3.",
                            "user: four"),
                    messages(cli.model.takeRequest()));
        }
    }

    @Test
    void pastedTextWithNewlinesStaysOneMessage() throws Exception {
        cli.model.enqueue(answer("Pasted."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt().type("\u001B[200~line one\nline two\u001B[201~" + ENTER);
            repl.await("Pasted.");

            assertEquals(List.of("user: line one\nline two"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void tabCompletesCommandsAndPaths() throws Exception {
        Files.writeString(cli.workspace.resolve("notes.txt"), "n\n");
        cli.model.enqueue(answer("Read."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.awaitPrompt().type("/to\t");
            repl.await("› /tools");
            repl.type(ENTER);
            repl.await("read_file");
            repl.awaitPrompt().type("see @no\t");
            repl.await("› see @notes.txt");
            repl.type(ENTER);
            repl.await("Read.");

            assertTrue(messages(cli.model.takeRequest()).get(0).contains("<file path=\"notes.txt\">"));
        }
    }

    @Test
    void ctrlCWhileTheModelIsSilentCancelsTheRequest() throws Exception {
        cli.model.enqueue(answer("Too late.").setHeadersDelay(3, java.util.concurrent.TimeUnit.SECONDS));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("think hard");
            repl.await("thinking…");
            // The server has the request (and sits on its answer) before Ctrl-C, so the cancel cuts a live request.
            cli.model.takeRequest();
            long pressed = System.nanoTime();
            repl.type(CTRL_C);
            repl.await("⊘ cancelled;");
            long tookMillis = (System.nanoTime() - pressed) / 1_000_000;

            cli.model.enqueue(answer("Here."));
            repl.submit("again");
            repl.await("Here.");

            assertTrue(tookMillis < 2_000, "the cancel took " + tookMillis + " ms");
            assertEquals(List.of("user: think hard", "user: again"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void slashModelWithAProviderPrefixCarriesTheConversationToTheOtherProvider() throws Exception {
        Files.writeString(cli.workspace.resolve("notes.txt"), "remember\n");
        cli.model.enqueue(calls(toolCall("r1", "read_file", "{\"path\":\"notes.txt\"}")), answer("Read it."));
        try (dev.dockhand.core.testing.ScriptedModel anthropic = new dev.dockhand.core.testing.ScriptedModel()) {
            anthropic.enqueue(new okhttp3.mockwebserver.MockResponse()
                    .setHeader("Content-Type", "text/event-stream")
                    .setBody("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                            + "\"text_delta\",\"text\":\"Claude here.\"}}\n\n"
                            + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                            + "\"usage\":{\"output_tokens\":3}}\n\n"));
            cli.variables.put("ANTHROPIC_API_KEY", "sk-ant");
            cli.variables.put("ANTHROPIC_BASE_URL", anthropic.rootUrl());
            try (ReplHarness repl = new ReplHarness(cli)) {
                repl.submit("read the notes");
                repl.await("Read it.");
                repl.submit("/model anthropic:claude-test");
                repl.await("Model: anthropic:claude-test (the conversation carries on)");
                repl.submit("and now?");
                repl.await("Claude here.");

                JsonNode request = anthropic.takeJson();
                assertEquals("claude-test", request.get("model").asText());
                assertEquals(
                        List.of("user", "assistant", "user", "assistant", "user"),
                        java.util.stream.StreamSupport.stream(
                                        request.get("messages").spliterator(), false)
                                .map(message -> message.get("role").asText())
                                .toList());
                assertEquals(
                        "tool_use", request.at("/messages/1/content/0/type").asText());
                assertEquals(
                        "tool_result", request.at("/messages/2/content/0/type").asText());
                assertEquals(
                        "r1", request.at("/messages/2/content/0/tool_use_id").asText());
                assertTrue(repl.screen().contains("anthropic:claude-test · default (Shift-Tab)"), repl.screen());
            }
        }
    }

    @Test
    void noColorKeepsTheMarkdownAsWrittenAndTheScreenPlain() throws Exception {
        cli.variables.put("NO_COLOR", "1");
        cli.model.enqueue(answer("Some **bold** text."));
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("hi");
            repl.await("Some **bold** text.");

            assertTrue(repl.screen().contains("openai:test-model · default (Shift-Tab)"), repl.screen());
        }
    }

    @Test
    void aDumbTerminalGetsPlainTextWithoutStatusLineOrSpinner() throws Exception {
        cli.model.enqueue(answer("# Title\nplain"));
        try (ReplHarness repl = new ReplHarness("dumb", cli)) {
            repl.submit("hello");
            repl.await("plain");

            String screen = repl.screen();
            assertTrue(screen.contains("# Title\nplain"), screen);
            assertTrue(!screen.contains("Shift-Tab") && !screen.contains("thinking"), screen);
        }
    }

    @Test
    void keysTypedWhileTheSessionOpensAreSentAtTheFirstPrompt() throws Exception {
        cli.model.enqueue(answer("Hi."));
        holdTheSessionStart();
        try (ReplHarness repl = new ReplHarness(cli)) {
            awaitExists(temp.resolve("opening"));
            repl.type("hello" + ENTER);
            Files.createFile(temp.resolve("go"));
            repl.await("Hi.");
            repl.awaitPrompt();

            // Not echoed as they were typed: the screen is that of a message typed at the prompt.
            assertEquals(
                    List.of(
                            "Dockhand · openai:test-model · sandbox none · /help for commands, Ctrl-D to quit",
                            "",
                            "› hello",
                            "Hi.",
                            "",
                            "›"),
                    repl.rowsFrom("Dockhand ·").subList(0, 6),
                    repl.screen());
            assertEquals(List.of("user: hello"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void keysTypedWhileTheSessionOpensAreSentAtTheFirstPromptOnADumbTerminal() throws Exception {
        cli.model.enqueue(answer("Hi."));
        holdTheSessionStart();
        try (ReplHarness repl = new ReplHarness("dumb", cli)) {
            awaitExists(temp.resolve("opening"));
            repl.type("hello" + ENTER);
            Files.createFile(temp.resolve("go"));
            repl.await("Hi.");

            assertEquals(List.of("user: hello"), messages(cli.model.takeRequest()));
        }
    }

    @Test
    void onADumbTerminalEnterArrivingAsCtrlJSendsTheMessage() throws Exception {
        // An editor's shell buffer ends each line with Ctrl-J, and so does a terminal jline does not make raw.
        cli.model.enqueue(answer("Hi."), answer("Both lines."));
        try (ReplHarness repl = new ReplHarness("dumb", cli)) {
            repl.awaitPrompt().type("hello\n");
            repl.await("Hi.");
            repl.awaitPrompt().type("one\\\ntwo\n");
            repl.await("Both lines.");

            assertEquals(List.of("user: hello"), messages(cli.model.takeRequest()));
            assertEquals(List.of("user: hello", "assistant: Hi.", "user: one\ntwo"), messages(cli.model.takeRequest()));
        }
    }

    /**
     * A SessionStart hook that holds the REPL before its banner and first prompt: it creates {@code opening} in the
     * test's folder, then waits there for {@code go}.
     */
    private void holdTheSessionStart() throws Exception {
        Path hold = temp.resolve("hold.sh");
        Files.writeString(
                hold, "#!/bin/bash\ncat > /dev/null\ntouch opening\nwhile [ ! -e go ]; do sleep 0.02; done\n");
        assertTrue(hold.toFile().setExecutable(true));
        Files.createDirectories(temp.resolve("home"));
        Files.writeString(
                temp.resolve("home/settings.json"),
                "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\","
                        + " \"command\": \"cd '" + temp + "' && ./hold.sh\", \"timeout\": 60}]}]}}");
    }

    private static void awaitExists(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (Files.notExists(file)) {
            assertTrue(System.nanoTime() < deadline, file + " never appeared");
            Thread.sleep(20);
        }
    }

    @Test
    void keysTypedDuringATurnWaitUnseenForTheNextPrompt() throws Exception {
        cli.model.enqueue(
                calls(toolCall("s1", "run_shell_command", "{\"command\":\"echo working; sleep 1\"}")),
                answer("First done."),
                answer("Second done."));
        try (ReplHarness repl = new ReplHarness(cli, "--yolo")) {
            repl.submit("do the first thing");
            repl.await("    working");
            repl.type("then the second" + ENTER);
            repl.await("Second done.");

            String screen = repl.screen();
            // Not echoed while the command ran: the text shows once, as the next prompt's input, then its answer.
            assertEquals(screen.indexOf("then the second"), screen.lastIndexOf("then the second"), screen);
            assertTrue(screen.indexOf("First done.") < screen.indexOf("› then the second"), screen);
            assertTrue(screen.indexOf("› then the second") < screen.indexOf("Second done."), screen);
            cli.model.takeRequest();
            cli.model.takeRequest();
            List<String> third = messages(cli.model.takeRequest());
            assertEquals("user: then the second", third.get(third.size() - 1));
        }
    }

    @Test
    void ctrlOExpandsARunningSubAgentToItsToolCallsAndFoldsItAgain() throws Exception {
        Files.writeString(cli.workspace.resolve("alpha.txt"), "alpha\n");
        String agentCall = "{\"description\":\"look\",\"prompt\":\"Look around.\",\"subagent_type\":\"explore\"}";
        cli.model.enqueue(calls(toolCall("m1", "agent", agentCall)), answer("Done."));
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        // The sub-agent's second request is held, so it is still running while the keys are pressed.
        cli.model
                .route(dev.dockhand.core.testing.ScriptedModel.mentioning("You are explore"))
                .enqueue(calls(toolCall("e1", "read_file", "{\"path\":\"alpha.txt\"}")))
                .reply(request -> {
                    held.countDown();
                    try {
                        release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return answer("alpha is in alpha.txt.");
                });
        try (ReplHarness repl = new ReplHarness(cli)) {
            repl.submit("look around");
            // Its read is over: the sub-agent waits for its model's next reply.
            assertTrue(held.await(10, java.util.concurrent.TimeUnit.SECONDS));
            repl.await("↳ read_file");
            assertEquals(
                    List.of("S agent explore: look  ↳ read_file alpha.txt  (Ctrl-O to expand)"),
                    live(repl, "agent explore"));

            repl.type(CTRL_O);
            repl.await("(Ctrl-O to fold)");
            assertEquals(
                    List.of("S agent explore: look  (Ctrl-O to fold)", "    ✓ read_file alpha.txt · read 1 line (T)"),
                    live(repl, "agent explore"));

            repl.type(CTRL_O);
            repl.await("(Ctrl-O to expand)");
            repl.type(CTRL_O);
            repl.await("(Ctrl-O to fold)");
            release.countDown();
            repl.await("Done.");
            repl.awaitPrompt();

            assertEquals(
                    List.of(
                            "✓ agent explore: look · Sub-agent explore-1 (explore) made 2 model requests and 1 tool call",
                            "  (read_file … (T)",
                            "    ✓ read_file alpha.txt · read 1 line (T)"),
                    live(repl, "✓ agent explore").subList(0, 3));
            // At the prompt, Ctrl-O folds them again for the next turn, and says so.
            repl.type(CTRL_O);
            repl.await("Sub-agents: one line each, with the tool they run now (Ctrl-O shows each call).");
        } finally {
            release.countDown();
        }
    }

    /** The screen's rows from the last holding {@code marker}, the spinner as S and each duration as T. */
    private static List<String> live(ReplHarness repl, String marker) {
        return repl.rowsFrom(marker).stream()
                .map(row ->
                        row.replaceAll("\\(\\d+(\\.\\d+)? (ms|s|min)\\)", "(T)").replaceAll("^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]", "S"))
                .filter(row -> !row.isBlank() && !row.startsWith("›") && !row.contains("(Shift-Tab)"))
                .toList();
    }
}
