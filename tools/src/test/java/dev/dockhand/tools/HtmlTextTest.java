package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HtmlTextTest {
    @Test
    void blanksAtLineEndsGoAndEmptyLinesCollapseToOne() {
        assertEquals("a\n\n b\nc \td", HtmlText.tidy("a  \n\n \n\t\n b \t\nc \td"));
    }

    @Test
    void aPreOfMegabytesOfSpacesWithNoNewlineConvertsInLinearTime() {
        // The regex this replaced took 0.8 s for 10,000 such spaces and four times as long for each doubling: minutes
        // for these two million. Linear, it takes well under a second.
        String spaces = " ".repeat(2_000_000);

        String text = assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> HtmlText.convert("<pre>" + spaces + "x</pre>", "https://example.com/"));

        assertEquals("```\n" + spaces + "x\n```", text);
    }
}
