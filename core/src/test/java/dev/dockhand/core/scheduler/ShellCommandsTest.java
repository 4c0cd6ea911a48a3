package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
