package dev.dockhand.core.glob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Java's glob syntax, matched without backtracking: the JDK's own matcher is the reference it must agree with. */
class GlobTest {
    /** Every pattern Java refuses is refused, and every one it takes matches what the JDK's matcher matches. */
    @Test
    void agreesWithTheJdksMatcherOnGeneratedPatternsAndPaths() {
        // Hand-written pieces; patterns and paths are drawn from them with a fixed seed, so a failure repeats.
        String[] patternPieces = {
            "a",
            "b",
            "/",
            "*",
            "**",
            "?",
            "[ab]",
            "[!a]",
            "[a-c]",
            "[^a]",
            "{a,b}",
            "{,b*}",
            "{a/*,**b}",
            "\\*",
            "\\{",
            ".",
            "[-a]",
            "[a-]",
            "]",
            "}",
            ",",
            "[",
            "{",
            "[]",
            "[!]",
            "[c-a]",
            "[/]",
            "\\",
            "[\\]"
        };
        String[] pathPieces = {"a", "b", "c", "/", "*", "^", "-", "{", "]", ".", "ab", "é", "😀"};
        Random random = new Random(20_250_101);
        List<String> disagreements = new ArrayList<>();
        for (int p = 0; p < 3000; p++) {
            String pattern = draw(random, patternPieces, 1 + random.nextInt(6));
            List<PathMatcher> jdk;
            try {
                jdk = jdkMatchers(pattern);
            } catch (IllegalArgumentException refused) {
                try {
                    Glob.compile(pattern);
                    disagreements.add(pattern + ": the JDK refuses it, Glob took it");
                } catch (Glob.InvalidGlobException expected) {
                    // Both refuse it.
                }
                continue;
            }
            Glob glob;
            try {
                glob = Glob.compile(pattern);
            } catch (Glob.InvalidGlobException e) {
                disagreements.add(pattern + ": Glob refuses it (" + e.getMessage() + "), the JDK took it");
                continue;
            }
            for (int q = 0; q < 40; q++) {
                String path = draw(random, pathPieces, 1 + random.nextInt(6));
                Path asPath;
                try {
                    asPath = Path.of(path);
                } catch (RuntimeException notAPath) {
                    continue;
                }
                boolean expected = jdk.stream().anyMatch(matcher -> matcher.matches(asPath));
                if (glob.matches(asPath) != expected) {
                    disagreements.add(pattern + " ~ " + asPath + ": the JDK says " + expected);
                }
            }
        }
        assertEquals(List.of(), disagreements);
    }

    private static String draw(Random random, String[] pieces, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }

    /** The JDK's matchers, with the leading {@code **}{@code /} also left out, as Glob reads it. */
    private static List<PathMatcher> jdkMatchers(String pattern) {
        List<PathMatcher> matchers = new ArrayList<>();
        matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
        String rest = pattern;
        while (rest.startsWith("**/")) {
            rest = rest.substring(3);
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + rest));
        }
        return matchers;
    }

    @Test
    void matchesTheDocumentedForms() {
        Map<String, Boolean> cases = new LinkedHashMap<>();
        cases.put("*.java ~ Main.java", true);
        cases.put("*.java ~ src/Main.java", false);
        cases.put("**/*.java ~ Main.java", true);
        cases.put("**/*.java ~ src/main/Main.java", true);
        cases.put("src/**/*.java ~ src/main/Main.java", true);
        // Java's ** is any characters: src/**/x needs a folder between, as the JDK's matcher has it.
        cases.put("src/**/*.java ~ src/Main.java", false);
        cases.put("src/** ~ src/a/b", true);
        cases.put("a**b ~ a/x/b", true);
        cases.put("*.{java,kt} ~ A.kt", true);
        cases.put("*.{java,kt} ~ A.scala", false);
        cases.put("{src/*,lib/**} ~ lib/a/b.c", true);
        cases.put("{src/*,lib/**} ~ src/a/b.c", false);
        cases.put("{a,b*}* ~ axyz", true);
        cases.put("{ab,b} ~ ab", true);
        cases.put("{ab,b} ~ b", true);
        cases.put("{ab,b} ~ a", false);
        cases.put("x{a,}y ~ xy", true);
        cases.put("*.[ch] ~ lib/a.c", false);
        cases.put("*.[ch] ~ a.h", true);
        cases.put("[!a]? ~ ba", true);
        cases.put("[!a]? ~ ab", false);
        cases.put("[^a] ~ ^", true);
        cases.put("? ~ 😀", true);
        cases.put("\\{a} ~ {a}", true);
        cases.put("** ~ a\nb", true);
        Map<String, Boolean> found = new LinkedHashMap<>();
        cases.keySet().forEach(test -> {
            String[] parts = test.split(" ~ ", 2);
            found.put(test, Glob.compile(parts[0]).matches(parts[1]));
        });
        assertEquals(cases, found);
    }

    @Test
    void refusesWhatJavasGlobSyntaxRefuses() {
        Map<String, String> refused = new LinkedHashMap<>();
        for (String pattern : List.of("src/[a", "{a,{b}}", "{a", "a\\", "[c-a]", "[a/b]", "[]", "[!]", "[a-c-e]")) {
            refused.put(
                    pattern,
                    assertThrows(Glob.InvalidGlobException.class, () -> Glob.compile(pattern))
                            .getMessage());
        }
        assertEquals(
                Map.of(
                        "src/[a", "missing ']' at index 5",
                        "{a,{b}}", "cannot nest groups at index 3",
                        "{a", "missing '}' at index 1",
                        "a\\", "no character to escape at index 1",
                        "[c-a]", "invalid range at index 1",
                        "[a/b]", "explicit name separator in class at index 2",
                        "[]", "empty character class at index 0",
                        "[!]", "empty character class at index 0",
                        "[a-c-e]", "invalid range at index 4"),
                refused);
    }

    @Test
    void refusesAPatternLongerThanTheLimit() {
        String pattern = "a".repeat(Glob.MAX_LENGTH + 1);

        assertEquals(
                "longer than 4096 characters at index 4096",
                assertThrows(Glob.InvalidGlobException.class, () -> Glob.compile(pattern))
                        .getMessage());
    }

    /** The JDK's matcher takes hours here: each * is retried at every place it could end. */
    @Test
    void aPatternOfManyStarsIsDecidedQuicklyAgainstALongName() {
        Glob stars = Glob.compile("*a*a*a*a*a*a*a*a*a*a*a*a*b");
        Glob crossing = Glob.compile("**a**a**a**a**a**a**a**a**a**a**a**a**b");
        Glob groups = Glob.compile("{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}{*a,a*}b");
        String name = "a".repeat(255);
        String deep = ("a".repeat(40) + "/").repeat(100) + "a".repeat(40);

        assertEquals(
                List.of(false, true, false, false, true),
                assertTimeoutPreemptively(
                        Duration.ofSeconds(5),
                        () -> List.of(
                                stars.matches(name),
                                stars.matches(name + "b"),
                                crossing.matches(deep),
                                groups.matches(name),
                                groups.matches(name + "b"))));
    }
}
