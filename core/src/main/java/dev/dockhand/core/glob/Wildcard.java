package dev.dockhand.core.glob;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled wildcard pattern, matched in time proportional to the text's length times the pattern's size, whatever
 * either holds. A backtracking matcher (java.util.regex, and JGit's ignore rules, which become regexes) retries each
 * {@code *} at every place it could end, and a pattern like {@code *a*a*a*a*a*a*a*a*b} against a long name of
 * {@code a}s takes hours. Here the pattern is a small program (Thompson's construction) run over the text once, with
 * every state it could be in kept at the same time, so no choice is ever retried.
 *
 * <p>The program's operations match one code point each ({@code ?} and a bracket expression never match {@code /}), or
 * loop over any run of them ({@code *} never crossing a {@code /}, Java's {@code **} crossing them), or move on
 * without reading (to several places for an alternation or an optional part). Plain names and {@code *.ext}, most of
 * a {@code .gitignore}, skip the program: they are a string comparison.
 */
public final class Wildcard {
    static final byte CHAR = 0;
    static final byte ANY = 1;
    static final byte CLASS = 2;
    static final byte STAR = 3;
    static final byte STAR_ANY = 4;
    static final byte FORK = 5;
    static final byte JUMP = 6;

    /** A pattern git gives up on (an unclosed bracket, an unknown class name, a trailing backslash). */
    static final Wildcard NEVER = new Wildcard(new byte[0], new int[0], new CharClass[0], new int[0][], true);

    private final byte[] ops;
    private final int[] args;
    private final CharClass[] classes;
    private final int[][] forks;
    private final boolean never;
    /** The whole pattern, when it is a plain string; null otherwise. */
    private final String literal;
    /** What follows a leading {@code *} when nothing else is special; null otherwise. */
    private final String suffix;

    private Wildcard(byte[] ops, int[] args, CharClass[] classes, int[][] forks, boolean never) {
        this.ops = ops;
        this.args = args;
        this.classes = classes;
        this.forks = forks;
        this.never = never;
        this.literal = never ? null : literalFrom(0);
        this.suffix = !never && ops.length > 0 && ops[0] == STAR ? literalFrom(1) : null;
    }

    /** The characters of operations {@code from} on, when all of them match one given character; null otherwise. */
    private String literalFrom(int from) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < ops.length; i++) {
            if (ops[i] != CHAR) {
                return null;
            }
            text.appendCodePoint(args[i]);
        }
        return text.toString();
    }

    /** Whether the pattern matches the whole of {@code text}. */
    public boolean matches(String text) {
        return matches(text, 0, text.length());
    }

    /** Whether the pattern matches the whole of {@code text} from {@code from} (inclusive) to {@code to}. */
    public boolean matches(String text, int from, int to) {
        if (never) {
            return false;
        }
        if (literal != null) {
            return to - from == literal.length() && text.startsWith(literal, from);
        }
        if (suffix != null) {
            int start = to - suffix.length();
            return start >= from && text.startsWith(suffix, start) && text.lastIndexOf('/', start - 1) < from;
        }
        return new Run().matches(text, from, to);
    }

    /** One match: the states reached so far, as a list of the operations that read the next character. */
    private final class Run {
        private int[] current = new int[ops.length];
        private int[] next = new int[ops.length];
        private final int[] stack = new int[ops.length + 1];
        /** The step at which each state (and the accepting one, last) was last reached. */
        private final int[] reached = new int[ops.length + 1];

        private int step = 1;

        boolean matches(String text, int from, int to) {
            int count = reach(0, current, 0);
            int i = from;
            while (i < to) {
                if (count == 0) {
                    return false;
                }
                int c = text.codePointAt(i);
                i += Character.charCount(c);
                step++;
                int reachedNext = 0;
                for (int k = 0; k < count; k++) {
                    int state = current[k];
                    int arg = args[state];
                    reachedNext = switch (ops[state]) {
                        case CHAR -> arg == c ? reach(state + 1, next, reachedNext) : reachedNext;
                        case ANY -> c != '/' ? reach(state + 1, next, reachedNext) : reachedNext;
                        case CLASS -> classes[arg].contains(c) ? reach(state + 1, next, reachedNext) : reachedNext;
                        case STAR -> c != '/' ? reach(state, next, reachedNext) : reachedNext;
                        default -> reach(state, next, reachedNext);
                    };
                }
                int[] swap = current;
                current = next;
                next = swap;
                count = reachedNext;
            }
            return reached[ops.length] == step;
        }

        /**
         * Adds {@code state} and every state it leads to without reading to {@code list} (those that read), unless
         * already reached at this step; returns the list's new size.
         */
        private int reach(int state, int[] list, int size) {
            if (reached[state] == step) {
                return size;
            }
            reached[state] = step;
            int top = 0;
            stack[top++] = state;
            while (top > 0) {
                int at = stack[--top];
                if (at == ops.length) {
                    continue;
                }
                byte op = ops[at];
                if (op == FORK) {
                    for (int target : forks[args[at]]) {
                        top = push(target, top);
                    }
                } else if (op == JUMP) {
                    top = push(args[at], top);
                } else {
                    list[size++] = at;
                    if (op == STAR || op == STAR_ANY) {
                        top = push(at + 1, top);
                    }
                }
            }
            return size;
        }

        private int push(int state, int top) {
            if (reached[state] != step) {
                reached[state] = step;
                stack[top++] = state;
            }
            return top;
        }
    }

    /** Builds a program one operation at a time; forward jumps are set once their target is known. */
    static final class Builder {
        private byte[] ops = new byte[16];
        private int[] args = new int[16];
        private int size;
        /** The furthest place a fork or jump leads to: a loop there must stay apart from the one before it. */
        private int furthestTarget = -1;

        private final List<CharClass> classes = new ArrayList<>();
        private final List<int[]> forks = new ArrayList<>();

        /** Where the next operation goes. */
        int here() {
            return size;
        }

        void literal(int c) {
            add(CHAR, c);
        }

        void any() {
            add(ANY, 0);
        }

        void charClass(CharClass set) {
            classes.add(set);
            add(CLASS, classes.size() - 1);
        }

        /** {@code *}; one after another, two loops are one (the wider). */
        void star(boolean crossesSlash) {
            byte op = crossesSlash ? STAR_ANY : STAR;
            if (size > 0 && furthestTarget < size && (ops[size - 1] == STAR || ops[size - 1] == STAR_ANY)) {
                ops[size - 1] = (byte) Math.max(ops[size - 1], op);
                return;
            }
            add(op, 0);
        }

        /** A fork whose targets {@link #setFork} gives later; returns it. */
        int fork() {
            forks.add(new int[0]);
            add(FORK, forks.size() - 1);
            return size - 1;
        }

        void setFork(int fork, int... targets) {
            forks.set(args[fork], targets);
            for (int target : targets) {
                furthestTarget = Math.max(furthestTarget, target);
            }
        }

        /** A jump whose target {@link #setJump} gives later; returns it. */
        int jump() {
            add(JUMP, 0);
            return size - 1;
        }

        void setJump(int jump, int target) {
            args[jump] = target;
            furthestTarget = Math.max(furthestTarget, target);
        }

        private void add(byte op, int arg) {
            if (size == ops.length) {
                ops = Arrays.copyOf(ops, size * 2);
                args = Arrays.copyOf(args, size * 2);
            }
            ops[size] = op;
            args[size++] = arg;
        }

        Wildcard build() {
            return new Wildcard(
                    Arrays.copyOf(ops, size),
                    Arrays.copyOf(args, size),
                    classes.toArray(new CharClass[0]),
                    forks.toArray(new int[0][]),
                    false);
        }
    }
}
