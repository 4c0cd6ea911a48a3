package dev.dockhand.core.scheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * A permission rule's pattern, matched against a whole command or path by following every place in the pattern the
 * text read so far can have reached, all at once. The work is at most the pattern's length times the text's, whatever
 * the pattern: a rule a repository writes, like {@code run_shell_command(*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*q)}, cannot
 * hold the check up the way a regular expression's backtracking could, which nothing can interrupt. Characters are
 * read as code points, so {@code ?} takes a whole character outside the Basic Multilingual Plane.
 */
final class Wildcard {
    /** Any run of characters, {@code /} included. */
    private static final int ANY = -1;
    /** Any run of characters but {@code /}. */
    private static final int WITHIN = -2;
    /** One character but {@code /}. */
    private static final int ONE = -3;
    /** The group after it, up to {@link #skip}, may be left out. */
    private static final int OPTIONAL = -4;

    /** Each step: a code point (itself) or one of the kinds above. */
    private final int[] steps;
    /** For an {@link #OPTIONAL} step, the step after its group. */
    private final int[] skip;

    private Wildcard(List<int[]> steps) {
        this.steps = steps.stream().mapToInt(step -> step[0]).toArray();
        this.skip = steps.stream().mapToInt(step -> step[1]).toArray();
    }

    /**
     * A command pattern: {@code *} is any run of characters, everything else itself; a {@code *} after a space at the
     * end may also be nothing, so {@code git status *} covers {@code git status} but not {@code git statusx}.
     */
    static Wildcard command(String pattern) {
        boolean wordTail = pattern.endsWith(" *");
        String body = wordTail ? pattern.substring(0, pattern.length() - 2) : pattern;
        List<int[]> steps = new ArrayList<>();
        body.codePoints().forEach(c -> steps.add(step(c == '*' ? ANY : c)));
        if (wordTail) {
            optional(steps, ' ', ANY);
        }
        return new Wildcard(steps);
    }

    /**
     * A path glob, its separators already {@code /}: {@code **} crosses folders (a {@code **}{@code /} may be nothing,
     * and so may a final {@code /**}), {@code *} and {@code ?} do not; everything else is itself.
     */
    static Wildcard glob(String pattern) {
        List<int[]> steps = new ArrayList<>();
        int i = 0;
        while (i < pattern.length()) {
            int c = pattern.codePointAt(i);
            if (pattern.startsWith("/**", i) && i + 3 == pattern.length()) {
                optional(steps, '/', ANY);
                i += 3;
            } else if (pattern.startsWith("**/", i)) {
                optional(steps, ANY, '/');
                i += 3;
            } else if (pattern.startsWith("**", i)) {
                steps.add(step(ANY));
                i += 2;
            } else {
                steps.add(step(c == '*' ? WITHIN : c == '?' ? ONE : c));
                i += Character.charCount(c);
            }
        }
        return new Wildcard(steps);
    }

    private static int[] step(int kind) {
        return new int[] {kind, 0};
    }

    private static void optional(List<int[]> steps, int first, int second) {
        steps.add(new int[] {OPTIONAL, steps.size() + 3});
        steps.add(step(first));
        steps.add(step(second));
    }

    /** Whether the pattern matches the whole text. */
    boolean matches(String text) {
        int end = steps.length;
        boolean[] reached = new boolean[end + 1];
        // Each step is marked once per character and adds at most two: enough room for every addition.
        int[] pending = new int[2 * end + 3];
        follow(reached, pending, 0);
        int i = 0;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            boolean[] next = new boolean[end + 1];
            boolean any = false;
            for (int at = 0; at < end; at++) {
                if (!reached[at]) {
                    continue;
                }
                int kind = steps[at];
                if (kind == ANY || (kind == WITHIN && c != '/')) {
                    follow(next, pending, at);
                    any = true;
                } else if (kind == c || (kind == ONE && c != '/')) {
                    follow(next, pending, at + 1);
                    any = true;
                }
            }
            if (!any) {
                return false;
            }
            reached = next;
        }
        return reached[end];
    }

    /** Marks {@code from} reached, and every step reachable from it without reading a character. */
    private void follow(boolean[] reached, int[] pending, int from) {
        int count = 0;
        pending[count++] = from;
        while (count > 0) {
            int at = pending[--count];
            if (reached[at]) {
                continue;
            }
            reached[at] = true;
            if (at == steps.length) {
                continue;
            }
            int kind = steps[at];
            if (kind == ANY || kind == WITHIN || kind == OPTIONAL) {
                pending[count++] = at + 1;
            }
            if (kind == OPTIONAL) {
                pending[count++] = skip[at];
            }
        }
    }
}
