package dev.dockhand.core.scheduler;

import dev.dockhand.core.glob.Wildcard;

/**
 * A permission rule's pattern, read into the program of core's {@link Wildcard}, which matches it against a whole
 * command or path in time proportional to the pattern's length times the text's, whatever the pattern: a rule a
 * repository writes, like {@code run_shell_command(*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*q)}, cannot hold the check up the
 * way a regular expression's backtracking could, which nothing can interrupt. Characters are read as code points, so
 * {@code ?} takes a whole character outside the Basic Multilingual Plane.
 */
final class RulePatterns {
    private RulePatterns() {}

    /**
     * A command pattern: {@code *} is any run of characters, everything else itself; a {@code *} after a space at the
     * end may also be nothing, so {@code git status *} covers {@code git status} but not {@code git statusx}.
     */
    static Wildcard command(String pattern) {
        boolean wordTail = pattern.endsWith(" *");
        String body = wordTail ? pattern.substring(0, pattern.length() - 2) : pattern;
        Wildcard.Builder program = new Wildcard.Builder();
        body.codePoints().forEach(c -> {
            if (c == '*') {
                program.star(true);
            } else {
                program.literal(c);
            }
        });
        if (wordTail) {
            optionalThenAnything(program, ' ');
        }
        return program.build();
    }

    /**
     * A path glob, its separators already {@code /}: {@code **} crosses folders (a {@code **}{@code /} may be nothing,
     * and so may a final {@code /**}), {@code *} and {@code ?} do not; everything else is itself.
     */
    static Wildcard glob(String pattern) {
        Wildcard.Builder program = new Wildcard.Builder();
        int i = 0;
        while (i < pattern.length()) {
            int c = pattern.codePointAt(i);
            if (pattern.startsWith("/**", i) && i + 3 == pattern.length()) {
                optionalThenAnything(program, '/');
                i += 3;
            } else if (pattern.startsWith("**/", i)) {
                program.anyFolders();
                i += 3;
            } else if (pattern.startsWith("**", i)) {
                program.star(true);
                i += 2;
            } else {
                if (c == '*') {
                    program.star(false);
                } else if (c == '?') {
                    program.any();
                } else {
                    program.literal(c);
                }
                i += Character.charCount(c);
            }
        }
        return program.build();
    }

    /** {@code c} and any run of characters after it, or nothing. */
    private static void optionalThenAnything(Wildcard.Builder program, int c) {
        int fork = program.fork();
        program.literal(c);
        program.star(true);
        program.setFork(fork, fork + 1, program.here());
    }
}
