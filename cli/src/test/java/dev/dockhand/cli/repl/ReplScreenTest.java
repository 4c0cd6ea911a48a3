package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

class ReplScreenTest {
    @Test
    void aLineLosesItsEscapeSequencesAndControlCharactersAndKeepsItsStyles() {
        AttributedString line = new AttributedStringBuilder()
                .style(AttributedStyle.BOLD)
                .append("  in /work/\u001B[1A\u001B[2K")
                .style(AttributedStyle.DEFAULT.foreground(AttributedStyle.RED))
                .append("x\u001B]52;c;ZXZpbA==\u0007\ty\nz")
                .toAttributedString();

        AttributedString shown = ReplScreen.printable(line);

        assertEquals(
                new AttributedStringBuilder()
                        .style(AttributedStyle.BOLD)
                        .append("  in /work/")
                        .style(AttributedStyle.DEFAULT.foreground(AttributedStyle.RED))
                        .append("x    yz")
                        .toAttributedString(),
                shown);
    }

    @Test
    void aCleanLineIsShownAsItIs() {
        AttributedString line = new AttributedString("  $ git status", AttributedStyle.BOLD);

        assertSame(line, ReplScreen.printable(line));
        assertEquals(
                List.of("  $ git status"), List.of(ReplScreen.printable(line).toString()));
    }
}
