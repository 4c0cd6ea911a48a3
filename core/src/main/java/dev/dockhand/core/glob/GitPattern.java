package dev.dockhand.core.glob;

/**
 * git's wildcard syntax (its {@code wildmatch} with {@code WM_PATHNAME}, as {@code .gitignore} rules use it), compiled
 * to a {@link Wildcard}: {@code *} and {@code ?} never match {@code /}; {@code [...]} is a bracket expression (negated
 * by a leading {@code !} or {@code ^}, with ranges, backslash escapes and the named classes {@code [:alpha:]} and the
 * others); a backslash makes the next character plain; a run of two or more {@code *} that is a whole part of the path
 * ({@code **}{@code /x}, {@code x/**}, {@code x/**}{@code /y}) matches across {@code /}, where {@code **}{@code /} also
 * matches nothing, and any other run is one {@code *} ({@code foo**}{@code /bar} is {@code foo*}{@code /bar}, as git
 * 2.52 and later read it; earlier git compared the {@code foo} apart and read {@code **}{@code /bar} as if it started
 * the rule). A pattern git gives up on (an unclosed bracket, an unknown class name, a trailing backslash) matches
 * nothing, as in git.
 */
final class GitPattern {
    private final String pattern;
    private final Wildcard.Builder program = new Wildcard.Builder();
    private int at;

    private GitPattern(String pattern) {
        this.pattern = pattern;
    }

    static Wildcard compile(String pattern) {
        GitPattern compiler = new GitPattern(pattern);
        return compiler.compile() ? compiler.program.build() : Wildcard.NEVER;
    }

    private boolean compile() {
        while (at < pattern.length()) {
            int c = pattern.codePointAt(at);
            boolean valid =
                    switch (c) {
                        case '\\' -> escaped();
                        case '?' -> {
                            program.any();
                            at++;
                            yield true;
                        }
                        case '[' -> bracket();
                        case '*' -> {
                            stars();
                            yield true;
                        }
                        default -> {
                            program.literal(c);
                            at += Character.charCount(c);
                            yield true;
                        }
                    };
            if (!valid) {
                return false;
            }
        }
        return true;
    }

    private boolean escaped() {
        if (at + 1 >= pattern.length()) {
            return false;
        }
        int c = pattern.codePointAt(at + 1);
        program.literal(c);
        at += 1 + Character.charCount(c);
        return true;
    }

    /** A run of {@code *}: one {@code *}, or {@code **} as a whole part of the path. */
    private void stars() {
        int start = at;
        while (at < pattern.length() && pattern.charAt(at) == '*') {
            at++;
        }
        boolean wholePart = at - start >= 2
                && (start == 0 || pattern.charAt(start - 1) == '/')
                && (at == pattern.length() || pattern.charAt(at) == '/' || pattern.startsWith("\\/", at));
        if (!wholePart) {
            program.star(false);
            return;
        }
        if (at < pattern.length() && pattern.charAt(at) == '/') {
            // "**/": any folders, or none.
            program.anyFolders();
            at++;
            return;
        }
        program.star(true);
    }

    /** A bracket expression, read as git's wildmatch reads one; false when git gives up on it. */
    private boolean bracket() {
        int p = at + 1;
        boolean negated = p < pattern.length() && (pattern.charAt(p) == '!' || pattern.charAt(p) == '^');
        if (negated) {
            p++;
        }
        CharClass.Builder set = new CharClass.Builder(negated);
        // The previous character, the start of a range; -1 when there is none (at the start, after a range or class).
        int previous = -1;
        // The next ']' after a "[:", found once and kept until the reading passes it, so that many "[:" never closed
        // by ":]" cost one look each, not one scan each to the same ']'.
        int close = -1;
        do {
            if (p >= pattern.length()) {
                return false;
            }
            int c = pattern.codePointAt(p);
            if (c == '\\') {
                p++;
                if (p >= pattern.length()) {
                    return false;
                }
                c = pattern.codePointAt(p);
                set.add(c);
                previous = c;
            } else if (c == '-' && previous >= 0 && p + 1 < pattern.length() && pattern.charAt(p + 1) != ']') {
                p++;
                int high = pattern.codePointAt(p);
                if (high == '\\') {
                    p++;
                    if (p >= pattern.length()) {
                        return false;
                    }
                    high = pattern.codePointAt(p);
                }
                set.range(previous, high);
                c = high;
                previous = -1;
            } else if (c == '[' && p + 1 < pattern.length() && pattern.charAt(p + 1) == ':') {
                if (close < p + 2) {
                    close = pattern.indexOf(']', p + 2);
                }
                if (close < 0) {
                    return false;
                }
                if (close - (p + 2) < 1 || pattern.charAt(close - 1) != ':') {
                    // No ":]": the '[' is a plain member, and the ':' after it is read next.
                    set.add('[');
                    previous = '[';
                } else {
                    int named = CharClass.namedClass(pattern.substring(p + 2, close - 1));
                    if (named == 0) {
                        return false;
                    }
                    set.named(named);
                    previous = -1;
                    c = ']';
                    p = close;
                }
            } else {
                set.add(c);
                previous = c;
            }
            p += Character.charCount(c);
        } while (p >= pattern.length() || pattern.charAt(p) != ']');
        program.charClass(set.build());
        at = p + 1;
        return true;
    }
}
