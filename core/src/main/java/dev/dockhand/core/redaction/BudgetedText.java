package dev.dockhand.core.redaction;

/**
 * A text that a regular expression may read only so many characters of. A pattern from someone's settings can
 * backtrack catastrophically ({@code (a+)+$} on a line of a's takes longer than the session); Java's regex engine
 * cannot be interrupted, but every step it takes reads a character through {@link #charAt}, so counting those reads
 * bounds its work. Linear patterns read each character a few times; the budget allows hundreds.
 */
final class BudgetedText implements CharSequence {
    /** Reads allowed per character of the text, plus a floor for short texts. */
    static final long READS_PER_CHAR = 200;

    static final long READS_FLOOR = 100_000;

    /** Thrown from inside the regex engine when the budget is spent. */
    static final class Exhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exhausted() {
            super("the pattern read more of the text than its budget allows", null, false, false);
        }
    }

    private final String text;
    private long left;

    BudgetedText(String text) {
        this.text = text;
        this.left = READS_FLOOR + READS_PER_CHAR * text.length();
    }

    @Override
    public char charAt(int index) {
        if (--left < 0) {
            throw new Exhausted();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.subSequence(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
