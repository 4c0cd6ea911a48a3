package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ShellCommandsTest {

    private static ShellCommands.Split split(String line) {
        return ShellCommands.split(line);
    }

    private static List<String> texts(String line) {
        return split(line).commands().stream().map(ShellCommands.Command::text).toList();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            value = {
                "git status && rm x => git status;rm x",
                "git status || rm x => git status;rm x",
                "git status; rm x => git status;rm x",
                "git status | rm x => git status;rm x",
                "git status |& rm x => git status;rm x",
                "git status & rm x => git status;rm x",
                "(cd a; rm x) => cd a;rm x",
                "echo $(rm x) => rm x;echo $(…)",
                "echo `rm x` => rm x;echo $(…)",
                "diff <(rm x) y => rm x;diff $(…) y",
                "echo \"a $(rm x) b\" => rm x;echo a $(…) b",
            })
    void eachOperatorSeparatesCommands(String line, String expected) {
        assertEquals(List.of(expected.split(";")), texts(line));
        assertEquals(true, split(line).complete());
    }

    @Test
    void aDollarQuoteInsideDoubleQuotesIsAPlainDollar() {
        assertEquals(
                new ShellCommands.Split(
                        List.of(
                                new ShellCommands.Command(List.of("echo", "$'")),
                                new ShellCommands.Command(List.of("touch", "pwned")),
                                new ShellCommands.Command(List.of("echo", "'"))),
                        true),
                split("echo \"$'\" ; touch pwned ; echo \"'\""));
    }

    @Test
    void anAnsiCStringIsDecodedAsBashDecodesIt() {
        assertEquals(
                List.of("rm x", "rm y", "rm z", "echo a'b\tc\\q"),
                texts("$'\\x72m' x; $'\\162\\155' y; $'\\u0072m' z; echo $'a\\'b\\tc\\q'"));
    }

    /**
     * The commands bash runs for a line, in order: each of {@code a}, {@code b} and {@code c} is a function that
     * writes its name to a log, so the log lists the commands bash ran, after all its quoting and expansion.
     */
    private static List<String> ranByBash(String line, Path folder) throws IOException, InterruptedException {
        Path log = folder.resolve("log");
        Files.writeString(log, "");
        String recorders = "a() { echo a >> \"$LOG\"; }; b() { echo b >> \"$LOG\"; }; c() { echo c >> \"$LOG\"; }\n";
        ProcessBuilder bash = new ProcessBuilder("bash", "--norc", "--noprofile", "-c", recorders + line)
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve("out").toFile());
        bash.environment().put("LOG", log.toString());
        Process process = bash.start();
        assumeTrue(process.waitFor(20, TimeUnit.SECONDS), "bash did not finish");
        return Files.readAllLines(log);
    }

    private static boolean hasBash() {
        try {
            return new ProcessBuilder("bash", "-c", "true").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "a \"$'\" ; b x ; a \"'\"",
                "a \"$\\\"\" ; b x",
                "a $'x\\' ; b' ; c",
                "a '$(' ; b ')'",
                "a \"\\$(\" ; b \")\"",
                "a \"${x}\" ; b",
                "a \"$(b \"c\")\"",
                "$'\\x61' x; b",
                "$'\\141'; $'\\u0062'; c",
                "a \"`b`\"",
                "a \"it's\" ; b",
                "a $\"x\" ; b",
                "a \\\"; b \\\"",
                "a \"x\\\"; b\"",
                "a $'\\'' ; b",
                "\"a\" 'b' ; b",
                "a \"$\" ; b '$'",
                "a \"${x:-y}\" && b ; c",
                "a $'\\'\"' ; b \"'\"",
                "a \"'$'\"; b",
            })
    void theSplitRunsTheCommandsBashRuns(String line, @TempDir Path folder) throws Exception {
        assumeTrue(hasBash(), "bash is not installed");
        ShellCommands.Split split = split(line);

        assertEquals(true, split.complete());
        assertEquals(
                ranByBash(line, folder),
                split.commands().stream().map(command -> command.words().get(0)).toList());
    }

    @Test
    void aNewlineSeparatesCommands() {
        assertEquals(List.of("git status", "rm x"), texts("git status\nrm x"));
    }

    @Test
    void operatorsInsideQuotesOrEscapedJoinNothing() {
        assertEquals(
                new ShellCommands.Split(
                        List.of(
                                new ShellCommands.Command(List.of("echo", "a && rm x")),
                                new ShellCommands.Command(List.of("echo", "b; rm y")),
                                new ShellCommands.Command(List.of("echo", "c;", "rm", "z"))),
                        true),
                split("echo 'a && rm x'; echo \"b; rm y\"; echo c\\; rm z"));
    }

    @Test
    void quotesAreRemovedFromWords() {
        assertEquals(List.of("rm keep.txt"), texts("'r'\"m\" keep.txt"));
        assertEquals(List.of("rm keep.txt"), texts("r\\m keep.txt"));
    }

    @Test
    void aSingleQuoteInsideDoubleQuotesIsText() {
        assertEquals(List.of("echo it's"), texts("echo \"it's\""));
    }

    @Test
    void anEscapedDollarIsNoSubstitution() {
        assertEquals(
                new ShellCommands.Split(List.of(new ShellCommands.Command(List.of("echo", "$(rm x)"))), true),
                split("echo \"\\$(rm x)\""));
    }

    @Test
    void keywordsAreStrippedAndLoopsAreNotUnderstoodWhole() {
        ShellCommands.Split loop = split("for f in *; do rm $f; done");

        assertEquals(
                List.of("f in *", "rm $f"),
                loop.commands().stream().map(ShellCommands.Command::text).toList());
        assertEquals(false, loop.complete());
        assertEquals(List.of("rm x", "ls"), texts("{ rm x; }; ! ls"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "echo 'unclosed",
                "echo \"unclosed",
                "echo $(unclosed",
                "cat <<EOF",
                "echo $((1 + 2))",
                "if true; then ls; fi",
                "f() { ls; }",
                "echo ${x:-$(rm y)}",
            })
    void whatTheSplitDoesNotModelLeavesItIncomplete(String line) {
        assertEquals(false, split(line).complete());
    }

    @Test
    void redirectionsStayWordsOfTheirCommand() {
        assertEquals(List.of("make > out.txt 2>&1"), texts("make >out.txt 2>&1"));
        assertEquals(List.of("cat < in"), texts("cat<in"));
        assertEquals(true, split("tr a b <<< text").complete());
    }

    @Test
    void commentsAreNotCommands() {
        assertEquals(List.of("ls", "echo a#b"), texts("ls # rm -rf /\necho a#b"));
    }

    @Test
    void aLineContinuationJoinsTheLines() {
        assertEquals(List.of("npm test"), texts("npm \\\ntest"));
    }
}
