package dev.dockhand.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class Utf16Test {
    /** U+1F600, two chars in a Java string: a high surrogate and a low one. */
    private static final String EMOJI = "\uD83D\uDE00";

    @Test
    void aHeadCutInsideAPairKeepsTheCharacterBeforeIt() {
        assertEquals("ab", Utf16.head("ab" + EMOJI + "cd", 3));
        assertEquals("ab" + EMOJI, Utf16.head("ab" + EMOJI + "cd", 4));
        assertEquals("ab" + EMOJI + "cd", Utf16.head("ab" + EMOJI + "cd", 10));
        assertEquals("", Utf16.head(EMOJI, 1));
    }

    @Test
    void aTailCutInsideAPairKeepsTheCharacterAfterIt() {
        assertEquals("cd", Utf16.tail("ab" + EMOJI + "cd", 3));
        assertEquals(EMOJI + "cd", Utf16.tail("ab" + EMOJI + "cd", 4));
        assertEquals("", Utf16.tail(EMOJI, 1));
    }

    @Test
    void aBoundaryIndexMovesBackOnlyFromInsideAPair() {
        String text = "a" + EMOJI + "b";
        assertEquals(0, Utf16.boundary(text, 0));
        assertEquals(1, Utf16.boundary(text, 1));
        assertEquals(1, Utf16.boundary(text, 2));
        assertEquals(3, Utf16.boundary(text, 3));
        assertEquals(4, Utf16.boundary(text, 4));
    }

    @Test
    void everySurrogateWithoutItsPartnerBecomesTheReplacementCharacter() {
        assertEquals("a\uFFFDb", Utf16.wellFormed("a\uD83Db"));
        assertEquals("a\uFFFD", Utf16.wellFormed("a\uD83D"));
        assertEquals("\uFFFDa", Utf16.wellFormed("\uDE00a"));
        assertEquals("\uFFFD\uFFFD" + EMOJI, Utf16.wellFormed("\uDE00\uDE00" + EMOJI));
        assertEquals("\uFFFD" + EMOJI + "\uFFFD", Utf16.wellFormed("\uD83D" + EMOJI + "\uDE00"));
    }

    @Test
    void wellFormedTextIsReturnedAsItIs() {
        String text = "plain, " + EMOJI + " and é";
        assertSame(text, Utf16.wellFormed(text));
    }
}
