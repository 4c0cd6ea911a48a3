package dev.dockhand.core.glob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shortcuts a wildcard takes before, or instead of, its automaton (its fixed start and end, the characters every
 * match holds, a leading {@code **}{@code /} tried after each slash) answer as the automaton would, and a wildcard
 * shared by several threads answers each right.
 */
class WildcardTest {
    /**
     * git's wildcards drawn from hand-written pieces with a fixed seed, each against paths drawn the same way, and as a
     * part of a longer text: the answer is a regular expression's, written from gitignore(5)'s reading of each piece.
     */
    @Test
    void gitPatternsAgreeWithARegularExpressionOfTheSameReading() {
        String[] patternPieces = {"a", "b", "ge", "/", "*", "**", "**/", "/**", "?", "[ab]", "[!a]", "x/"};
        String[] textPieces = {"a", "b", "ge", "/", "ab", "x", "x/", "gea/"};
        Random random = new Random(20_261_208);
        List<String> disagreements = new ArrayList<>();
        for (int p = 0; p < 3000; p++) {
            String pattern = draw(random, patternPieces, 1 + random.nextInt(6));
            Wildcard wildcard = GitPattern.compile(pattern);
            Pattern expected = regex(pattern);
            for (int q = 0; q < 40; q++) {
                String text = draw(random, textPieces, random.nextInt(7));
                boolean should = expected.matcher(text).matches();
                String within = "zz/" + text + "/yy";
                if (wildcard.matches(text) != should || wildcard.matches(within, 3, 3 + text.length()) != should) {
                    disagreements.add(pattern + " ~ " + text + ": expected " + should);
                }
            }
        }
        assertEquals(List.of(), disagreements);
    }

    /** One wildcard, whose automaton keeps its arrays for the next match, asked by four threads at once. */
    @Test
    void aWildcardSharedByThreadsAnswersEachRight() throws Exception {
        Wildcard wildcard = GitPattern.compile("**/src/**/*a*b*/x");
        List<String> texts = List.of("src/ab/x", "p/src/q/aab/x", "src/ba/x", "p/src/q/ab/y", "src/q/r/xaxbx/x");
        List<Boolean> expected = List.of(true, true, false, false, true);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                Callable<List<String>> asking = () -> {
                    List<String> wrong = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        int which = (i + offset) % texts.size();
                        if (wildcard.matches(texts.get(which)) != expected.get(which)) {
                            wrong.add(texts.get(which));
                        }
                    }
                    return wrong;
                };
                results.add(threads.submit(asking));
            }
            List<String> wrong = new ArrayList<>();
            for (Future<List<String>> result : results) {
                wrong.addAll(result.get());
            }
            assertEquals(List.of(), wrong);
        } finally {
            threads.shutdownNow();
        }
    }

    private static String draw(Random random, String[] pieces, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }

    /**
     * gitignore(5)'s reading as a regular expression: a run of stars that is a whole part of the path ({@code **}
     * {@code /} at the start or after a slash, {@code /**} at the end) crosses folders, {@code **}{@code /} also
     * matching none; any other run is one {@code *}; {@code *}, {@code ?} and sets never match a slash.
     */
    private static Pattern regex(String pattern) {
        StringBuilder regex = new StringBuilder();
        int at = 0;
        while (at < pattern.length()) {
            char c = pattern.charAt(at);
            if (c == '*') {
                int start = at;
                while (at < pattern.length() && pattern.charAt(at) == '*') {
                    at++;
                }
                boolean whole = at - start >= 2
                        && (start == 0 || pattern.charAt(start - 1) == '/')
                        && (at == pattern.length() || pattern.charAt(at) == '/');
                if (!whole) {
                    regex.append("[^/]*");
                } else if (at < pattern.length()) {
                    regex.append("(?:.*/)?");
                    at++;
                } else {
                    regex.append(".*");
                }
            } else if (c == '?') {
                regex.append("[^/]");
                at++;
            } else if (c == '[') {
                int close = pattern.indexOf(']', at);
                String members = pattern.substring(at + 1, close);
                regex.append(members.startsWith("!") ? "[^/" + members.substring(1) + "]" : "[" + members + "]");
                at = close + 1;
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
                at++;
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
