package dev.dockhand.core.glob;

import java.util.Arrays;

/**
 * A bracket expression's set of characters: ranges of code points, git's named classes ({@code [:alpha:]} and the
 * others, ASCII only, as git's own character tests are), and whether the set is negated. It never holds {@code /}:
 * a bracket expression matches within one name, in git's syntax and in Java's.
 */
final class CharClass {
    /** git's named classes, in the order of their bits in {@link #named}. */
    private static final String[] NAMES = {
        "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"
    };

    private final int[] ranges;
    private final int named;
    private final boolean negated;

    private CharClass(int[] ranges, int named, boolean negated) {
        this.ranges = ranges;
        this.named = named;
        this.negated = negated;
    }

    /** The bit of git's class called {@code name}, or 0 when git knows no such class. */
    static int namedClass(String name) {
        int index = Arrays.asList(NAMES).indexOf(name);
        return index < 0 ? 0 : 1 << index;
    }

    boolean contains(int c) {
        if (c == '/') {
            return false;
        }
        boolean in = false;
        for (int i = 0; i < ranges.length && !in; i += 2) {
            in = c >= ranges[i] && c <= ranges[i + 1];
        }
        if (!in && named != 0 && c < 128) {
            for (int bit = 0; bit < NAMES.length && !in; bit++) {
                in = (named & (1 << bit)) != 0 && isNamed(bit, c);
            }
        }
        return in != negated;
    }

    /** Whether the ASCII character {@code c} is of git's class number {@code bit} (git's ctype, not the C library's). */
    private static boolean isNamed(int bit, int c) {
        boolean lower = c >= 'a' && c <= 'z';
        boolean upper = c >= 'A' && c <= 'Z';
        boolean digit = c >= '0' && c <= '9';
        boolean graph = c > ' ' && c < 127;
        return switch (bit) {
            case 0 -> lower || upper || digit;
            case 1 -> lower || upper;
            case 2 -> c == ' ' || c == '\t';
            case 3 -> c < ' ' || c == 127;
            case 4 -> digit;
            case 5 -> graph;
            case 6 -> lower;
            case 7 -> graph || c == ' ';
            case 8 -> graph && !(lower || upper || digit);
                // git's isspace: space, tab, line feed and carriage return, not the vertical tab or form feed.
            case 9 -> c == ' ' || c == '\t' || c == '\n' || c == '\r';
            case 10 -> upper;
            default -> digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
        };
    }

    /** Collects a set's members as its pattern is read. */
    static final class Builder {
        private int[] ranges = new int[8];
        private int size;
        private int named;
        private final boolean negated;

        Builder(boolean negated) {
            this.negated = negated;
        }

        void add(int c) {
            range(c, c);
        }

        void range(int low, int high) {
            if (size == ranges.length) {
                ranges = Arrays.copyOf(ranges, size * 2);
            }
            ranges[size++] = low;
            ranges[size++] = high;
        }

        void named(int bit) {
            named |= bit;
        }

        boolean isEmpty() {
            return size == 0 && named == 0;
        }

        CharClass build() {
            return new CharClass(Arrays.copyOf(ranges, size), named, negated);
        }
    }
}
