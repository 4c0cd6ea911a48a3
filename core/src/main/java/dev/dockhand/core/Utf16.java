package dev.dockhand.core;

/**
 * Cuts text between whole characters, and repairs text that holds half of one. A Java string keeps a character
 * outside the Basic Multilingual Plane (most emoji, some CJK) as two chars, a surrogate pair; a cut by char count can
 * fall between them and leave half a character, which no encoding can write. Jackson writes it as a lone
 * {@code \uD83D} escape, Anthropic's API refuses the request with 400 "no low surrogate in string", and since a tool
 * result stays in the history, every later request of the session is refused too (anthropics/claude-code#3277). So
 * every cut of text bound for the model, the transcript or the terminal goes through {@link #head} or {@link #tail},
 * and the conversation's messages pass {@link #wellFormed} as they are made.
 */
public final class Utf16 {
    /** What a surrogate without its partner becomes: U+FFFD, the replacement character. */
    public static final char REPLACEMENT = '\uFFFD';

    private Utf16() {}

    /** The start of {@code text}: at most {@code max} chars, one fewer when the cut would split a pair. */
    public static String head(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, boundary(text, max));
    }

    /** The end of {@code text}: at most {@code max} chars, one fewer when the cut would split a pair. */
    public static String tail(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int start = text.length() - max;
        return text.substring(start == boundary(text, start) ? start : start + 1);
    }

    /** {@code index}, or the index before it when it falls between the two chars of a surrogate pair. */
    public static int boundary(CharSequence text, int index) {
        if (index > 0
                && index < text.length()
                && Character.isHighSurrogate(text.charAt(index - 1))
                && Character.isLowSurrogate(text.charAt(index))) {
            return index - 1;
        }
        return index;
    }

    /**
     * {@code text} with every surrogate that is not half of a pair replaced by {@link #REPLACEMENT}: text every API
     * takes. The same instance when there is none, which one pass over the chars tells.
     */
    public static String wellFormed(String text) {
        int lone = nextLone(text, 0);
        if (lone < 0) {
            return text;
        }
        char[] chars = text.toCharArray();
        while (lone >= 0) {
            chars[lone] = REPLACEMENT;
            lone = nextLone(text, lone + 1);
        }
        return new String(chars);
    }

    /** The index of the first surrogate without its partner at or after {@code from}; -1 when there is none. */
    private static int nextLone(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
