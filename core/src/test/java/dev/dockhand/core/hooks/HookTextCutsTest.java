package dev.dockhand.core.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What a hook printed, cut for the model or a warning, is cut between whole characters. */
class HookTextCutsTest {
    /** U+1F600, two chars. */
    private static final String EMOJI = "\uD83D\uDE00";

    @Test
    void aHooksTextCutInsideAnEmojiKeepsWholeCharacters() {
        String text = "x".repeat(Hooks.TEXT_LIMIT - 1) + EMOJI + "y".repeat(10);

        assertEquals(
                "x".repeat(Hooks.TEXT_LIMIT - 1) + "\n[… the hook printed " + (Hooks.TEXT_LIMIT + 11)
                        + " characters; the first " + (Hooks.TEXT_LIMIT - 1) + " are kept]",
                Hooks.bounded(text));
    }

    @Test
    void aQuoteOfAHooksOutputCutInsideAnEmojiKeepsWholeCharacters() {
        assertEquals("x".repeat(299) + "…", HookAnswer.quote("x".repeat(299) + EMOJI + "y"));
    }
}
