package dev.dockhand.cli.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class TerminalTextTest {
    private static String written(UnaryOperator<Writer> filter, String... writes) throws IOException {
        StringWriter out = new StringWriter();
        try (Writer writer = filter.apply(out)) {
            for (String write : writes) {
                writer.write(write);
            }
        }
        return out.toString();
    }

    @Test
    void clipboardWritesTitlesAndCursorMovesAreDroppedAndTheTextAroundThemKept() throws IOException {
        assertEquals(
                "done ok\nnextline\n",
                written(
                        TerminalText::forOutput,
                        "done \u001B]52;c;ZXZpbA==\u0007ok\n",
                        "\u001B]0;TITLE\u001B\\\u001B[1A\u001B[2Knext\rline\n"));
    }

    @Test
    void aSequenceSplitOverWritesIsDroppedWhole() throws IOException {
        assertEquals(
                "before after",
                written(
                        TerminalText::forOutput,
                        "before \u001B",
                        "]52;c;ZX",
                        "ZpbA==\u0007",
                        "\u001B[",
                        "2",
                        "Kafter"));
    }

    @Test
    void anUnendedOscEndsAtTheNextNewlineSoTheRestIsNotSwallowed() throws IOException {
        assertEquals("a\nstill here\n", written(TerminalText::forOutput, "a\u001B]0;never ended\nstill here\n"));
    }

    @Test
    void controlCharactersAndC1GoTabsAndNewlinesStay() throws IOException {
        assertEquals("a\tb\nc d", written(TerminalText::forOutput, "a\tb\n\u0008c\u0000 \u009B2Kd\u007F"));
    }

    @Test
    void stderrAlsoLosesWhatReordersOrHidesTextStdoutKeepsIt() throws IOException {
        String text = "rm -rf / \u202E# safe\u200B\n";

        assertEquals(
                List.of("rm -rf / \u202E# safe\u200B\n", "rm -rf / # safe\n"),
                List.of(written(TerminalText::forOutput, text), written(TerminalText::forMessages, text)));
    }
}
