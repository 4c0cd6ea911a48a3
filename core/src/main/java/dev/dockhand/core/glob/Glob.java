package dev.dockhand.core.glob;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A glob pattern in Java's syntax ({@link java.nio.file.FileSystem#getPathMatcher}), matched in time proportional to
 * the path's length times the pattern's ({@link Wildcard}) where Java's own matcher, a regular expression, can
 * backtrack for hours: {@code *} matches within one name, {@code **} across names, {@code ?} one character but
 * {@code /}, {@code [...]} one character of a set ({@code [!...]} negated; {@code ^} is a plain member; ranges with
 * {@code -}), {@code {a,b}} one of its comma-separated parts (which may hold wildcards, not another group), and a
 * backslash makes the next character plain. Java refuses the same patterns ({@link InvalidGlobException}). One
 * difference is kept on purpose: a pattern that starts with {@code **}{@code /} also matches with that part left
 * out, so {@code **}{@code /x} matches {@code x} at the top too, as in git and most tools.
 */
public final class Glob {
    /** The longest pattern taken: its matching time grows with its length. */
    public static final int MAX_LENGTH = 4096;

    private final String pattern;
    private final Wildcard wildcard;

    private Glob(String pattern, Wildcard wildcard) {
        this.pattern = pattern;
        this.wildcard = wildcard;
    }

    /** A pattern that Java's glob syntax refuses, or one longer than {@link #MAX_LENGTH}. */
    public static final class InvalidGlobException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidGlobException(String problem, int index) {
            super(problem + " at index " + index);
        }
    }

    /** Compiles {@code pattern}; throws {@link InvalidGlobException} where Java's glob syntax refuses it. */
    public static Glob compile(String pattern) {
        if (pattern.length() > MAX_LENGTH) {
            throw new InvalidGlobException("longer than " + MAX_LENGTH + " characters", MAX_LENGTH);
        }
        return new Glob(pattern, new Compiler(pattern).compile());
    }

    /** Whether the whole of {@code path}, written with {@code /}, matches. */
    public boolean matches(String path) {
        return wildcard.matches(path);
    }

    /** Whether {@code path} (its text, as Java's matcher takes it) matches. */
    public boolean matches(Path path) {
        return wildcard.matches(path.toString());
    }

    @Override
    public String toString() {
        return pattern;
    }

    /** Reads Java's glob syntax as {@code sun.nio.fs.Globs} does, into a program instead of a regular expression. */
    private static final class Compiler {
        private final String pattern;
        private final Wildcard.Builder program = new Wildcard.Builder();
        private int at;
        /** The open group's fork and the jumps that end its parts; null outside a group. */
        private int groupFork = -1;

        private List<Integer> partStarts;
        private List<Integer> partEnds;

        Compiler(String pattern) {
            this.pattern = pattern;
        }

        Wildcard compile() {
            while (pattern.startsWith("**/", at)) {
                // "**/" at the start: any folders, or none.
                program.anyFolders();
                at += 3;
            }
            while (at < pattern.length()) {
                int c = pattern.codePointAt(at);
                at += Character.charCount(c);
                switch (c) {
                    case '\\' -> escaped();
                    case '[' -> bracket();
                    case '{' -> openGroup();
                    case '}' -> closeGroup();
                    case ',' -> nextPart();
                    case '*' -> {
                        boolean two = at < pattern.length() && pattern.charAt(at) == '*';
                        if (two) {
                            at++;
                        }
                        program.star(two);
                    }
                    case '?' -> program.any();
                    default -> program.literal(c);
                }
            }
            if (groupFork >= 0) {
                throw new InvalidGlobException("missing '}'", at - 1);
            }
            return program.build();
        }

        private void escaped() {
            if (at >= pattern.length()) {
                throw new InvalidGlobException("no character to escape", at - 1);
            }
            int c = pattern.codePointAt(at);
            at += Character.charCount(c);
            program.literal(c);
        }

        private void openGroup() {
            if (groupFork >= 0) {
                throw new InvalidGlobException("cannot nest groups", at - 1);
            }
            groupFork = program.fork();
            partStarts = new ArrayList<>(List.of(program.here()));
            partEnds = new ArrayList<>();
        }

        private void nextPart() {
            if (groupFork < 0) {
                program.literal(',');
                return;
            }
            partEnds.add(program.jump());
            partStarts.add(program.here());
        }

        private void closeGroup() {
            if (groupFork < 0) {
                program.literal('}');
                return;
            }
            program.setFork(
                    groupFork, partStarts.stream().mapToInt(Integer::intValue).toArray());
            for (int jump : partEnds) {
                program.setJump(jump, program.here());
            }
            groupFork = -1;
        }

        /** A bracket expression, after its {@code [}. */
        private void bracket() {
            int start = at - 1;
            boolean negated = false;
            CharClass.Builder set;
            if (at < pattern.length() && pattern.charAt(at) == '^') {
                // Java's glob has no '^' negation: a plain member.
                set = new CharClass.Builder(false);
                set.add('^');
                at++;
            } else {
                negated = at < pattern.length() && pattern.charAt(at) == '!';
                if (negated) {
                    at++;
                }
                set = new CharClass.Builder(negated);
                if (at < pattern.length() && pattern.charAt(at) == '-') {
                    set.add('-');
                    at++;
                }
            }
            int last = -1;
            boolean closed = false;
            while (at < pattern.length()) {
                int c = pattern.codePointAt(at);
                at += Character.charCount(c);
                if (c == ']') {
                    closed = true;
                    break;
                }
                if (c == '/') {
                    throw new InvalidGlobException("explicit name separator in class", at - 1);
                }
                if (c != '-') {
                    set.add(c);
                    last = c;
                    continue;
                }
                if (last < 0) {
                    throw new InvalidGlobException("invalid range", at - 1);
                }
                if (at >= pattern.length()) {
                    break;
                }
                int high = pattern.codePointAt(at);
                at += Character.charCount(high);
                if (high == ']') {
                    set.add('-');
                    closed = true;
                    break;
                }
                if (high < last) {
                    throw new InvalidGlobException("invalid range", at - 3);
                }
                set.range(last, high);
                last = -1;
            }
            if (!closed) {
                throw new InvalidGlobException("missing ']'", at - 1);
            }
            if (set.isEmpty()) {
                throw new InvalidGlobException("empty character class", start);
            }
            program.charClass(set.build());
        }
    }
}
