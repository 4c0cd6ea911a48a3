package dev.dockhand.core.glob;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

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
 * a {@code .gitignore}, skip the program: they are a string comparison. So does {@code **}{@code /x/**} and the like:
 * its rest ({@code x/**}) is compared at the text's start and after each slash. Any other text is first looked through
 * for the characters every match holds ({@code x/}), and only one that has them runs the program, with arrays kept
 * from the last run.
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
    /** How many operations at the start, and at the end, each match exactly one character. */
    private final int head;

    private final int tail;
    /** The characters the first {@link #head} (last {@link #tail}) operations match, when each matches one given. */
    private final String headText;

    private final String tailText;
    /** The one operation between the head and the tail, when there is exactly one; -1 otherwise. */
    private final byte middle;
    /**
     * Characters every match holds between the head and the tail, side by side (the longest such run of the program's
     * plain characters); null when there are none. A text without them is refused before the automaton runs:
     * {@code **}{@code /generated/**} needs {@code generated/}.
     */
    private final String required;
    /** A run kept for the next match, so that most matches allocate nothing; taken by one match at a time. */
    private final AtomicReference<Run> spare = new AtomicReference<>();
    /**
     * For a program that starts with {@code **}{@code /} (any folders, or none) and whose rest needs no automaton
     * ({@code **}{@code /generated/**}, {@code **}{@code /foo}): that rest, tried at the text's start and after each
     * {@code /} in it, each try a string comparison or two. Null otherwise.
     */
    private final Wildcard floating;

    private Wildcard(byte[] ops, int[] args, CharClass[] classes, int[][] forks, boolean never) {
        this.ops = ops;
        this.args = args;
        this.classes = classes;
        this.forks = forks;
        this.never = never;
        int fixedHead = 0;
        while (fixedHead < ops.length && ops[fixedHead] <= CLASS) {
            fixedHead++;
        }
        // The tail starts after every place a fork or jump leads to: each path through the program ends with it.
        int tailStart = ops.length;
        while (tailStart > fixedHead && ops[tailStart - 1] <= CLASS) {
            tailStart--;
        }
        for (int i = 0; i < ops.length; i++) {
            if (ops[i] == JUMP) {
                tailStart = Math.max(tailStart, args[i]);
            } else if (ops[i] == FORK) {
                for (int target : forks[args[i]]) {
                    tailStart = Math.max(tailStart, target);
                }
            }
        }
        this.head = fixedHead;
        this.tail = ops.length - tailStart;
        this.headText = text(0, head);
        this.tailText = text(tailStart, ops.length);
        this.middle = tailStart - head == 1 ? ops[head] : -1;
        this.required = required(fixedHead, tailStart);
        Wildcard rest = startsAnyFolders() ? afterAnyFolders() : null;
        this.floating = rest != null && rest.floating == null && !rest.needsRun() ? rest : null;
    }

    /** Whether the program starts with {@code **}{@code /}: a fork to a loop over anything then a slash, or past both. */
    private boolean startsAnyFolders() {
        if (ops.length < 3 || ops[0] != FORK || ops[1] != STAR_ANY || ops[2] != CHAR || args[2] != '/') {
            return false;
        }
        int[] targets = forks[args[0]];
        if (targets.length != 2 || targets[0] != 1 || targets[1] != 3) {
            return false;
        }
        // Nothing after it leads back into it.
        for (int i = 3; i < ops.length; i++) {
            if (ops[i] == JUMP && args[i] < 3) {
                return false;
            }
            if (ops[i] == FORK) {
                for (int target : forks[args[i]]) {
                    if (target < 3) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** The program after its leading {@code **}{@code /}, its forks and jumps moved to match. */
    private Wildcard afterAnyFolders() {
        int[] restArgs = Arrays.copyOfRange(args, 3, args.length);
        byte[] restOps = Arrays.copyOfRange(ops, 3, ops.length);
        int[][] restForks = new int[forks.length][];
        for (int f = 0; f < forks.length; f++) {
            restForks[f] = Arrays.stream(forks[f]).map(target -> target - 3).toArray();
        }
        for (int i = 0; i < restOps.length; i++) {
            if (restOps[i] == JUMP) {
                restArgs[i] -= 3;
            }
        }
        return new Wildcard(restOps, restArgs, classes, restForks, false);
    }

    /** Whether matching runs the automaton: the part between the fixed head and tail is more than one loop. */
    private boolean needsRun() {
        return head + tail != ops.length && middle != STAR && middle != STAR_ANY;
    }

    /**
     * The longest run of plain characters between operations {@code from} and {@code to} that every way through the
     * program reads in a row; null when there is none. Forks and jumps only lead forward, so an operation is passed
     * on every way unless one leads from before it to after it.
     */
    private String required(int from, int to) {
        // skipped[i] > 0: some fork or jump leads over operation i.
        int[] skipped = new int[ops.length + 1];
        for (int i = 0; i < ops.length; i++) {
            int[] targets = ops[i] == FORK ? forks[args[i]] : ops[i] == JUMP ? new int[] {args[i]} : new int[0];
            for (int target : targets) {
                if (target <= i) {
                    // A way back (none is built now): the reasoning below would not hold.
                    return null;
                }
                if (target > i + 1) {
                    skipped[i + 1]++;
                    skipped[target]--;
                }
            }
        }
        int over = 0;
        for (int i = 0; i < from; i++) {
            over += skipped[i];
        }
        int bestStart = 0;
        int bestLength = 0;
        int runStart = -1;
        for (int i = from; i < to; i++) {
            over += skipped[i];
            if (ops[i] == CHAR && over == 0) {
                if (runStart < 0) {
                    runStart = i;
                }
                if (i + 1 - runStart > bestLength) {
                    bestStart = runStart;
                    bestLength = i + 1 - runStart;
                }
            } else {
                runStart = -1;
            }
        }
        return bestLength == 0 ? null : text(bestStart, bestStart + bestLength);
    }

    /** The characters operations {@code from} to {@code to} match, when each matches one given; null otherwise. */
    private String text(int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
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

    /**
     * Whether the pattern matches the whole of {@code text} from {@code from} (inclusive) to {@code to}. The
     * characters the pattern's fixed start and end stand for are compared first, where most texts that do not match
     * differ; only what lies between them, when the pattern has more than one loop or a choice there, is run through
     * the automaton.
     */
    public boolean matches(String text, int from, int to) {
        if (never) {
            return false;
        }
        if (floating != null) {
            return floatingMatches(text, from, to);
        }
        int start = headText != null
                ? (text.startsWith(headText, from) ? from + headText.length() : -1)
                : fixedAtStart(text, from, to);
        if (start < 0 || start > to) {
            return false;
        }
        int end = tailText != null
                ? (to - tailText.length() >= start && text.startsWith(tailText, to - tailText.length())
                        ? to - tailText.length()
                        : -1)
                : fixedAtEnd(text, start, to);
        if (end < 0) {
            return false;
        }
        if (head + tail == ops.length) {
            return start == end;
        }
        if (middle == STAR) {
            int slash = text.indexOf('/', start);
            return slash < 0 || slash >= end;
        }
        if (middle == STAR_ANY) {
            return true;
        }
        if (required != null) {
            int at = text.indexOf(required, start);
            if (at < 0 || at + required.length() > end) {
                return false;
            }
        }
        Run run = spare.getAndSet(null);
        if (run == null) {
            run = new Run();
        }
        try {
            return run.matches(text, start, end);
        } finally {
            spare.set(run);
        }
    }

    /** Whether the rest after a leading {@code **}{@code /} matches from the start or from just after a slash. */
    private boolean floatingMatches(String text, int from, int to) {
        if (required != null) {
            int at = text.indexOf(required, from);
            if (at < 0 || at + required.length() > to) {
                return false;
            }
        }
        if (floating.matches(text, from, to)) {
            return true;
        }
        for (int slash = text.indexOf('/', from); slash >= 0 && slash < to; slash = text.indexOf('/', slash + 1)) {
            if (floating.matches(text, slash + 1, to)) {
                return true;
            }
        }
        return false;
    }

    /** Where the text after the head starts, or -1 when the head does not match. */
    private int fixedAtStart(String text, int from, int to) {
        int at = from;
        for (int op = 0; op < head; op++) {
            if (at >= to) {
                return -1;
            }
            int c = text.codePointAt(at);
            if (!matchesOne(op, c)) {
                return -1;
            }
            at += Character.charCount(c);
        }
        return at;
    }

    /** Where the tail starts in the text, or -1 when it does not match there. */
    private int fixedAtEnd(String text, int start, int to) {
        int at = to;
        for (int op = ops.length - 1; op >= ops.length - tail; op--) {
            if (at <= start) {
                return -1;
            }
            int c = text.codePointBefore(at);
            if (!matchesOne(op, c)) {
                return -1;
            }
            at -= Character.charCount(c);
        }
        return at >= start ? at : -1;
    }

    private boolean matchesOne(int op, int c) {
        return switch (ops[op]) {
            case CHAR -> args[op] == c;
            case ANY -> c != '/';
            default -> classes[args[op]].contains(c);
        };
    }

    /**
     * One run of the automaton over the text between the head and the tail: the states reached so far, as a list of
     * the operations that read the next character; reaching the tail's first operation accepts.
     */
    private final class Run {
        private final int accept = ops.length - tail;
        private int[] current = new int[accept];
        private int[] next = new int[accept];
        private final int[] stack = new int[accept + 1];
        /** The step at which each state (and the accepting one, last) was last reached. */
        private final int[] reached = new int[accept + 1];

        private int step;

        boolean matches(String text, int from, int to) {
            if (step > Integer.MAX_VALUE - 2 - (to - from)) {
                // The steps of earlier matches are told apart from this one's by number: start again before they
                // could repeat.
                Arrays.fill(reached, 0);
                step = 0;
            }
            step++;
            int count = reach(head, current, 0);
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
            return reached[accept] == step;
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
                if (at == accept) {
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

    /**
     * Builds a program one operation at a time; forward jumps are set once their target is known. Public for the
     * permission rules' patterns, whose syntax is their own (see {@code core.scheduler.RulePatterns}).
     */
    public static final class Builder {
        private byte[] ops = new byte[16];
        private int[] args = new int[16];
        private int size;
        /** The furthest place a fork or jump leads to: a loop there must stay apart from the one before it. */
        private int furthestTarget = -1;

        private final List<CharClass> classes = new ArrayList<>();
        private final List<int[]> forks = new ArrayList<>();

        /** Where the next operation goes. */
        public int here() {
            return size;
        }

        /** One code point, itself. */
        public void literal(int c) {
            add(CHAR, c);
        }

        /** One code point but {@code /}. */
        public void any() {
            add(ANY, 0);
        }

        void charClass(CharClass set) {
            classes.add(set);
            add(CLASS, classes.size() - 1);
        }

        /** {@code *}; one after another, two loops are one (the wider). */
        public void star(boolean crossesSlash) {
            byte op = crossesSlash ? STAR_ANY : STAR;
            if (size > 0 && furthestTarget < size && (ops[size - 1] == STAR || ops[size - 1] == STAR_ANY)) {
                ops[size - 1] = (byte) Math.max(ops[size - 1], op);
                return;
            }
            add(op, 0);
        }

        /** {@code **}{@code /}: any folders, or none. */
        public void anyFolders() {
            int fork = fork();
            star(true);
            literal('/');
            setFork(fork, fork + 1, here());
        }

        /** A fork whose targets {@link #setFork} gives later; returns it. */
        public int fork() {
            forks.add(new int[0]);
            add(FORK, forks.size() - 1);
            return size - 1;
        }

        public void setFork(int fork, int... targets) {
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

        public Wildcard build() {
            return new Wildcard(
                    Arrays.copyOf(ops, size),
                    Arrays.copyOf(args, size),
                    classes.toArray(new CharClass[0]),
                    forks.toArray(new int[0][]),
                    false);
        }
    }
}
