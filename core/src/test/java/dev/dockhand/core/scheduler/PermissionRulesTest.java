package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.scheduler.PermissionRule.Decision;
import dev.dockhand.core.tool.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PermissionRulesTest {
    @TempDir
    Path workspace;

    private static PermissionRules rules(String... lines) {
        List<PermissionRule> rules = new ArrayList<>();
        for (String line : lines) {
            int space = line.indexOf(' ');
            rules.add(PermissionRule.parse(
                    Decision.valueOf(line.substring(0, space).toUpperCase(java.util.Locale.ROOT)),
                    line.substring(space + 1),
                    "test"));
        }
        return new PermissionRules(rules);
    }

    private static CallFacts command(String command) {
        return new CallFacts("run_shell_command", Optional.of(command), List.of(), Optional.empty());
    }

    /** The decision and the rule's text, or "none". */
    private static String verdict(PermissionRules rules, CallFacts call) {
        PermissionRules.Verdict verdict = rules.decide(call);
        return verdict.rule()
                .map(rule -> rule.decision().key() + " " + rule.text())
                .orElse("none");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "git status => allow run_shell_command(git status*)",
                "git status --short => allow run_shell_command(git status*)",
                "git  status => allow run_shell_command(git status*)",
                "git push => none",
                "npm test => allow run_shell_command(npm test)",
                "npm test --watch => none",
                "'npm' test => allow run_shell_command(npm test)",
            })
    void aCommandRuleIsAPrefixWithAStarOrExactWithout(String command, String expected) {
        PermissionRules rules = rules("allow run_shell_command(git status*)", "allow run_shell_command(npm test)");

        assertEquals(expected, verdict(rules, command(command)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "ls => allow run_shell_command(ls *)",
                "ls -la => allow run_shell_command(ls *)",
                "lsblk => none",
                "rm => deny run_shell_command(rm *)",
            })
    void aStarAfterASpaceAtTheEndCoversTheBareCommandButNotALongerWord(String command, String expected) {
        PermissionRules rules = rules("allow run_shell_command(ls *)", "deny run_shell_command(rm *)");

        assertEquals(expected, verdict(rules, command(command)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "git status && npm test => allow run_shell_command(npm test)",
                "git status && rm x => none",
                "git status || rm x => none",
                "git status; rm x => none",
                "git status | rm x => none",
                "git status $(rm x) => none",
                "git status `rm x` => none",
                "(rm x) => none",
                "git status\\nrm x => none",
                "git status 'a && rm x' => allow run_shell_command(git status*)",
                "git status \"; rm x\" => allow run_shell_command(git status*)",
                "git status 'unclosed => none",
                "for f in a; do git status; done => none",
            })
    void anAllowRuleAnswersForACompoundCommandOnlyWhenItCoversEveryPart(String command, String expected) {
        PermissionRules rules = rules("allow run_shell_command(git status*)", "allow run_shell_command(npm test)");

        assertEquals(expected, verdict(rules, command(command.replace("\\n", "\n"))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "rm keep.txt",
                "ls && rm keep.txt",
                "ls || rm keep.txt",
                "ls; rm keep.txt",
                "ls | rm keep.txt",
                "echo $(rm keep.txt)",
                "echo `rm keep.txt`",
                "(rm keep.txt)",
                "ls\\nrm keep.txt",
                "'rm' keep.txt",
                "FOO=1 rm keep.txt",
                "sudo -u root rm keep.txt",
                "/bin/rm keep.txt",
                "bash -c 'rm keep.txt'",
                "env A=1 sh -c \"ls; rm keep.txt\"",
                "eval rm keep.txt",
                "for f in a; do rm keep.txt; done",
                "ls 'unclosed; rm keep.txt",
            })
    void aDenyRuleMatchesAnyPartOfACommand(String command) {
        PermissionRules rules = rules("allow run_shell_command", "deny run_shell_command(rm *)");

        assertEquals("deny run_shell_command(rm *)", verdict(rules, command(command.replace("\\n", "\n"))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "X=rm; $X -rf x",
                "$(echo rm) -rf x",
                "`echo rm` -rf x",
                "/bin/r[m] -rf x",
                "/bin/r? -rf x",
                "ls && ${CMD} x",
                "sudo $X -rf x",
                "env A=1 $X -rf x",
                "bash -c '$X -rf x'",
                "eval \"$CMD\"",
            })
    void aCommandWhoseNameIsKnownOnlyWhenItRunsIsAskedAboutWhenADenyRuleExists(String command) {
        PermissionRules rules = rules("allow run_shell_command", "deny run_shell_command(rm *)");

        assertEquals(
                new PermissionRules.Verdict(
                        Optional.of(Decision.ASK),
                        Optional.of(rules.of(Decision.DENY).get(0)),
                        true),
                rules.decide(command(command)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "X=rm; $X -rf x => none",
                "$(echo rm) -rf x => none",
                "/bin/r[m] -rf x => none",
                "echo $HOME *.txt => allow run_shell_command(*)",
                "[ -f x ] => allow run_shell_command(*)",
            })
    void anAllowRuleNeverCoversACommandWhoseNameIsKnownOnlyWhenItRuns(String command, String expected) {
        PermissionRules rules = rules("allow run_shell_command(*)");

        assertEquals(expected, verdict(rules, command(command)));
    }

    @Test
    void anExpansionInAnArgumentLeavesTheCommandCheckable() {
        PermissionRules rules = rules("allow run_shell_command(echo *)", "deny run_shell_command(rm *)");

        assertEquals("allow run_shell_command(echo *)", verdict(rules, command("echo $HOME \"${USER}\" *.txt")));
        assertEquals("deny run_shell_command(rm *)", verdict(rules, command("rm $(cat list) *.o")));
    }

    @Test
    void aDenyRuleDoesNotMatchWhatIsOnlyText() {
        PermissionRules rules = rules("allow run_shell_command", "deny run_shell_command(rm *)");

        assertEquals("allow run_shell_command", verdict(rules, command("echo 'rm keep.txt'; grep rm notes")));
    }

    @Test
    void denyBeatsAskBeatsAllow() {
        PermissionRules all = rules(
                "allow run_shell_command(git *)",
                "ask run_shell_command(git push*)",
                "deny run_shell_command(git push -f*)");

        assertEquals("allow run_shell_command(git *)", verdict(all, command("git log")));
        assertEquals("ask run_shell_command(git push*)", verdict(all, command("git push")));
        assertEquals("deny run_shell_command(git push -f*)", verdict(all, command("git push -f origin")));
        assertEquals("ask run_shell_command(git push*)", verdict(all, command("git log && git push")));
    }

    @Test
    void aRuleForOneToolSaysNothingAboutAnother() {
        PermissionRules rules = rules("deny read_file", "allow edit");

        assertEquals("none", verdict(rules, CallFacts.named("write_file")));
        assertEquals("deny read_file", verdict(rules, CallFacts.named("read_file")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "docs/guide.md => allow edit(docs/**)",
                "docs/a/b/c.md => allow edit(docs/**)",
                "docs => allow edit(docs/**)",
                "./docs/guide.md => allow edit(docs/**)",
                "src/Main.java => none",
                "docs/../src/Main.java => none",
                "docs/.env => deny edit(**/.env)",
                ".env => deny edit(**/.env)",
                "src/config/.env => deny edit(**/.env)",
                "./docs/../secret/key.txt => deny edit(secret)",
                "notes.md => allow edit(*.md)",
                "docs/notes.md => allow edit(docs/**)",
                "a.txt => allow edit(?.txt)",
            })
    void aFileRuleIsAGlobOverNormalisedWorkspacePaths(String path, String expected) {
        PermissionRules rules = rules(
                "allow edit(docs/**)",
                "allow edit(*.md)",
                "allow edit(?.txt)",
                "deny edit(**/.env)",
                "deny edit(secret)");

        assertEquals(expected, verdict(rules, facts("edit", path)));
    }

    private CallFacts facts(String tool, String path) {
        String arguments = dev.dockhand.core.Json.object().put("path", path).toString();
        return CallFacts.of(new ToolCall("c1", tool, arguments), new Workspace(workspace, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "grep . => deny grep(secrets/**)",
                "grep => deny grep(secrets/**)",
                "glob . => deny glob(**/.env)",
                "glob src => deny glob(**/.env)",
                "list_directory . => deny list_directory(secrets)",
                "grep src => deny grep(src/*/keys)",
                "grep src/a => deny grep(src/*/keys)",
                "grep src/a/b => none",
                "grep docs => none",
                "grep secrets/sub => deny grep(secrets/**)",
                "list_directory docs => none",
                "read_file . => none",
            })
    void aToolThatWalksAFolderMatchesADenyRuleForAnythingInside(String call, String expected) {
        PermissionRules rules = rules(
                "deny grep(secrets/**)",
                "deny grep(src/*/keys)",
                "deny grep(*.pem)",
                "deny glob(**/.env)",
                "deny list_directory(secrets)",
                "deny read_file(secrets/**)");
        String[] words = (call + " ").split(" ", 2);

        assertEquals(expected, verdict(rules, facts(words[0], words[1].strip())));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                ". => deny grep(*.pem)",
                "docs => none",
            })
    void aPatternWithoutDoubleStarReachesOnlyItsOwnDepth(String path, String expected) {
        assertEquals(expected, verdict(rules("deny grep(*.pem)"), facts("grep", path)));
    }

    @Test
    void aFileRuleForOneToolDoesNotStopAnotherToolsWalk() {
        assertEquals("none", verdict(rules("deny read_file(**/.env)"), facts("grep", ".")));
    }

    @Test
    void aSymlinksRealPathIsCheckedToo() throws Exception {
        Files.createDirectories(workspace.resolve("secret"));
        Files.createDirectories(workspace.resolve("docs"));
        Files.createSymbolicLink(workspace.resolve("docs/link"), workspace.resolve("secret"));
        PermissionRules deny = rules("allow edit(docs/**)", "deny edit(secret/**)");
        PermissionRules allowOnly = rules("allow edit(docs/**)");

        assertEquals(
                List.of("docs/link/key.txt", "secret/key.txt"),
                facts("edit", "docs/link/key.txt").paths());
        assertEquals("deny edit(secret/**)", verdict(deny, facts("edit", "docs/link/key.txt")));
        // An allow rule must cover where the link really leads, too.
        assertEquals("none", verdict(allowOnly, facts("edit", "docs/link/key.txt")));
    }

    @Test
    void aFileToolWithoutAPathNamesTheWorkspaceRoot() {
        CallFacts facts =
                CallFacts.of(new ToolCall("c1", "glob", "{\"pattern\":\"**\"}"), new Workspace(workspace, List.of()));

        assertEquals(List.of("."), facts.paths());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "https://docs.oracle.com/javase/17/ => allow web_fetch(domain:docs.oracle.com)",
                "https://DOCS.Oracle.com./x => allow web_fetch(domain:docs.oracle.com)",
                "https://oracle.com/ => none",
                "https://evil.docs.oracle.com.example/ => none",
                "https://api.github.com/x => allow web_fetch(domain:*.github.com)",
                "https://github.com/x => none",
                "https://tracker.example/ => deny web_fetch(domain:tracker.example)",
                // No host to match the deny rule against: asked about (FetchHostRulesTest), under that rule.
                "not a url => deny web_fetch(domain:tracker.example)",
            })
    void aFetchRuleNamesAHost(String url, String expected) {
        PermissionRules rules = rules(
                "allow web_fetch(domain:docs.oracle.com)",
                "allow web_fetch(domain:*.github.com)",
                "deny web_fetch(domain:tracker.example)");
        String arguments = dev.dockhand.core.Json.object().put("url", url).toString();

        assertEquals(
                expected,
                verdict(
                        rules,
                        CallFacts.of(new ToolCall("c1", "web_fetch", arguments), new Workspace(workspace, List.of()))));
    }

    @Test
    void anMcpRuleNamesAServerOrOneOfItsTools() {
        PermissionRules rules = rules("allow mcp__github", "deny mcp__github__delete_repo", "ask mcp__jira__*");

        assertEquals("allow mcp__github", verdict(rules, CallFacts.named("mcp__github__list_issues")));
        assertEquals("deny mcp__github__delete_repo", verdict(rules, CallFacts.named("mcp__github__delete_repo")));
        assertEquals("ask mcp__jira", verdict(rules, CallFacts.named("mcp__jira__create")));
        assertEquals("none", verdict(rules, CallFacts.named("mcp__githubby__list")));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "%% => write a tool's name, like run_shell_command, optionally with a pattern in parentheses, like"
                        + " run_shell_command(git status*).",
                "Bash(ls => the pattern's closing parenthesis is missing.",
                "edit() => the pattern in parentheses is empty; leave the parentheses out to cover every call of edit.",
                "web_fetch(docs.oracle.com) => web_fetch takes domain:HOST, like web_fetch(domain:docs.oracle.com).",
                "edit(/etc/**) => file patterns are relative to the workspace, like edit(docs/**).",
                "todo_write(x) => todo_write takes no pattern; only run_shell_command, web_fetch and the file tools"
                        + " (edit, glob, grep, list_directory, read_file, write_file) do.",
            })
    void aBadRuleSaysWhatIsWrong(String rule, String message) {
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> PermissionRule.parse(Decision.DENY, rule, "test"));

        assertEquals(message, error.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " => ",
            quoteCharacter = '%',
            value = {
                "git status --short => run_shell_command(git status *)",
                "ls -la && npm test; ls => run_shell_command(ls *);run_shell_command(npm test *)",
                "rm keep.txt => run_shell_command(rm *)",
                "./gradlew build => run_shell_command(./gradlew build *)",
                "$(which rm) x => ",
                "FOO=1 make => ",
                "for f in a; do ls; done => ",
                "env A=1 make => run_shell_command(env A=1 make *)",
                "timeout 60 npm test => run_shell_command(timeout 60 npm test *)",
                "sudo -u me make install => run_shell_command(sudo -u me make install *)",
                "xargs -n1 echo => run_shell_command(xargs -n1 echo *)",
                "nice -n 5 make => run_shell_command(nice -n 5 make *)",
                "sudo -s make => ",
                "xargs --weird echo => ",
                "timeout npm test => ",
                "env => ",
                "bash build.sh => run_shell_command(bash build.sh)",
                "python3 x.py --fast => run_shell_command(python3 x.py --fast)",
                "node -e 1 => run_shell_command(node -e 1)",
                "sudo -u me bash build.sh => run_shell_command(sudo -u me bash build.sh)",
                "python3 x.py *.txt => ",
            })
    void alwaysAllowSavesEachPartsFirstWords(String command, String expected) {
        List<String> rules = PermissionRules.alwaysAllowRules(command(command));

        assertEquals(expected == null ? List.of() : List.of(expected.split(";")), rules);
    }

    @Test
    void alwaysAllowSavesAFetchsHostAndAnyOtherToolWhole() {
        String fetch = dev.dockhand.core.Json.object()
                .put("url", "https://Docs.Oracle.com/x")
                .toString();

        assertEquals(
                List.of("web_fetch(domain:docs.oracle.com)"),
                PermissionRules.alwaysAllowRules(CallFacts.of(new ToolCall("c1", "web_fetch", fetch))));
        assertEquals(
                List.of("edit"),
                PermissionRules.alwaysAllowRules(CallFacts.of(new ToolCall("c1", "edit", "{\"path\":\"a\"}"))));
        assertEquals(
                List.of("mcp__github__list"), PermissionRules.alwaysAllowRules(CallFacts.named("mcp__github__list")));
    }
}
