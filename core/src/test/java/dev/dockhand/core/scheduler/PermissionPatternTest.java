package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.dockhand.core.scheduler.PermissionRule.Decision;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a rule's pattern matches, one pattern and subject a row: the command wildcard ({@code *} any characters, a
 * final {@code " *"} also nothing, everything else itself) and the path glob ({@code **} across folders, {@code *} and
 * {@code ?} within one, a rule for a folder covering what is inside). The rows were written by hand and passed against
 * the regular expressions the patterns used to become; they pass unchanged against the matcher that replaced them,
 * whose work grows with the pattern's length times the subject's, so no pattern can hold a check up.
 */
class PermissionPatternTest {
    private static boolean command(String pattern, String command) {
        return PermissionRule.parse(Decision.DENY, "run_shell_command(" + pattern + ")", "test")
                .matchesCommand(command);
    }

    private static boolean path(String pattern, String path) {
        return PermissionRule.parse(Decision.DENY, "read_file(" + pattern + ")", "test")
                .matchesPath(path);
    }

    @ParameterizedTest(name = "{0} ~ {1} => {2}")
    @CsvSource(
            delimiterString = " | ",
            quoteCharacter = '%',
            value = {
                "git status | git status | true",
                "git status | git status -s | false",
                "git status | git statu | false",
                "git status* | git status | true",
                "git status* | git statusx | true",
                "git status* | git status --short | true",
                "git status * | git status | true",
                "git status * | git status -s | true",
                "git status * | git statusx | false",
                "git status * | %git status % | true",
                "* | anything at all | true",
                "* | %% | true",
                "*rm* | sudo rm -rf / | true",
                "*rm* | ls | false",
                "a*b*c | abc | true",
                "a*b*c | aXbYc | true",
                "a*b*c | aXbYcZ | false",
                "a*b*c | acb | false",
                "a*a | a | false",
                "a*a | aa | true",
                "a*a | aba | true",
                "*.sh | run.sh | true",
                "*.sh | run.shx | false",
                "? | ? | true",
                "? | x | false",
                "a.c | abc | false",
                "a.c | a.c | true",
                "[ab] | a | false",
                "[ab] | [ab] | true",
                "a\\E.*b | a\\E.*b | true",
                "a\\E.*b | axb | false",
                "x+ | xx | false",
                "(x) | (x) | true",
                "$HOME | $HOME | true",
                "echo * | echo | true",
                "echo * | echo a * b | true",
                "echo * | echoa | false",
                "a * * | a | false",
                "a * * | a b | true",
                "a * * | a b c | true",
                "a * * | a  b | true",
                "git * status | git status | false",
                "git * status | git -C x status | true",
            })
    void aCommandPatternMatchesAsItDidAsARegularExpression(String pattern, String command, boolean expected) {
        assertEquals(expected, command(pattern, command));
    }

    @Test
    void aCommandPatternsStarCoversLineEnds() {
        assertEquals(true, command("echo*done", "echo a\nb\ndone"));
        assertEquals(true, command("echo *", "echo a\nb"));
        assertEquals(false, command("echo", "echo\n"));
    }

    @ParameterizedTest(name = "{0} ~ {1} => {2}")
    @CsvSource(
            delimiterString = " | ",
            quoteCharacter = '%',
            value = {
                ".env | .env | true",
                ".env | a/.env | false",
                ".env | .env/x | true",
                ".env | .envx | false",
                "*.java | A.java | true",
                "*.java | src/A.java | false",
                "*.java | .java | true",
                "src/*.java | src/A.java | true",
                "src/*.java | src/a/A.java | false",
                "src/* | src/a/A.java | true",
                "src/* | src | false",
                "src/? | src/a | true",
                "src/? | src/ab | false",
                "src/? | src// | false",
                "a?c | abc | true",
                "a?c | a/c | false",
                "** | anything/at/all | true",
                "** | x | true",
                "**/.env | .env | true",
                "**/.env | a/b/.env | true",
                "**/.env | a/b/x.env | false",
                "**/.env | a/.env/inside | true",
                "src/** | src | true",
                "src/** | src/a/b | true",
                "src/** | srcx | false",
                "src/** | srcx/a | false",
                "src/**/A.java | src/A.java | true",
                "src/**/A.java | src/a/b/A.java | true",
                "src/**/A.java | src/a/bA.java | false",
                "src/**/A.java | srcA.java | false",
                "src**x | src/a/x | true",
                "src**x | srcx | true",
                "a**b | a/b | true",
                "a**b | ab | true",
                "a**b | a/c | false",
                "**.java | a/b/C.java | true",
                "**.java | C.java | true",
                "**/*.java | a/b/C.java | true",
                "**/*.java | C.java | true",
                "**/*.java | a/C.jav | false",
                "docs/ | docs/a.md | true",
                "./docs | docs/a.md | true",
                "././docs/** | docs/a.md | true",
                "docs\\** | docs/a/b.md | true",
                "docs\\*.md | docs/a.md | true",
                "a.b | axb | false",
                "a+b | a+b | true",
                "a[b] | a[b] | true",
                "a[b] | ab | false",
                "a{b,c} | ab | false",
                "a{b,c} | a{b,c} | true",
                "*/** | a | true",
                "*/** | a/b | true",
                "*/**/x | a/x | true",
                "*/**/x | a/b/c/x | true",
                "*/**/x | x | false",
                "** /x | ** /x | true",
                "a/**/** | a | false",
                "a/**/** | a/b/c | true",
            })
    void aPathGlobMatchesAsItDidAsARegularExpression(String pattern, String path, boolean expected) {
        assertEquals(expected, path(pattern, path));
    }

    @Test
    void aStarAndAQuestionMarkTakeAWholeCharacterOutsideTheBasicPlane() {
        assertEquals(true, path("?.txt", "\uD83D\uDE00.txt"));
        assertEquals(false, path("??.txt", "\uD83D\uDE00.txt"));
        assertEquals(true, command("say *", "say \uD83D\uDE00"));
    }

    /** The one change from the regular expressions, which split such a character in two and never matched it. */
    @Test
    void aGlobNamingACharacterOutsideTheBasicPlaneMatchesIt() {
        assertEquals(true, path("\uD83D\uDE00.txt", "\uD83D\uDE00.txt"));
        assertEquals(true, path("docs/\uD83D\uDE00*", "docs/\uD83D\uDE00 notes.md"));
        assertEquals(false, path("\uD83D\uDE00.txt", "\uD83D\uDE01.txt"));
    }

    @Test
    void aPatternOfManyStarsIsDecidedAtOnceOnALongCommand() {
        String pattern = "*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*e*q";
        String command = "echo " + "e".repeat(185);

        // A guard only: a backtracking regular expression takes hours here, the matcher well under a second.
        boolean matched = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> command(pattern, command));

        assertFalse(matched);
    }

    @Test
    void aGlobOfManyStarsIsDecidedAtOnceOnALongPath() {
        String pattern = "**a**a**a**a**a**a**a**a**a**a**a**a**a**a**a**a**b";
        String path = "a/".repeat(100) + "a".repeat(100);

        boolean matched = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> path(pattern, path));

        assertFalse(matched);
    }
}
