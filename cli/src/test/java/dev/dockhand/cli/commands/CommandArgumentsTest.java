package dev.dockhand.cli.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandArgumentsTest {
    @Test
    void wordsAreSplitAtSpacesWithQuotedPartsKeptTogether() {
        assertEquals(
                List.of("src/My File.java", "it's", "a", "b c", "C:\\temp\\x", "open ended"),
                CommandArguments.split("  \"src/My File.java\" \"it's\"   a 'b c' C:\\temp\\x 'open ended"));
        assertEquals(List.of("ab c", ""), CommandArguments.split("a\"b c\" ''"));
        assertEquals(List.of(), CommandArguments.split("   "));
    }

    @Test
    void argumentsFillAllOfThemAsTypedAndEachPositionWithOneWord() {
        String body = "Review $1 for $2 issues.\nAll: $ARGUMENTS\n";

        assertEquals(
                "Review src/My File.java for security issues.\nAll: \"src/My File.java\" security\n",
                CommandArguments.fill(body, " \"src/My File.java\" security "));
    }

    @Test
    void aPositionWithoutAWordIsEmptyAndOnlyOneDigitCounts() {
        assertEquals("[a] [] [] [a0]", CommandArguments.fill("[$1] [$2] [$9] [$10]", "a"));
    }

    @Test
    void placeholdersInTheArgumentsThemselvesStayAsTyped() {
        assertEquals("Say $2 and $ARGUMENTS to $2", CommandArguments.fill("Say $ARGUMENTS to $1", "$2 and $ARGUMENTS"));
    }

    @Test
    void aBodyWithoutPlaceholdersGetsTheArgumentsAfterIt() {
        assertEquals(
                "Explain the build.\n\nARGUMENTS: the tests",
                CommandArguments.fill("Explain the build.\n", "the tests"));
        assertEquals("Explain the build.\n", CommandArguments.fill("Explain the build.\n", "  "));
    }

    @Test
    void replacementsAreTakenLiterally() {
        assertEquals("cost: $5 \\1", CommandArguments.fill("cost: $ARGUMENTS", "$5 \\1"));
    }
}
