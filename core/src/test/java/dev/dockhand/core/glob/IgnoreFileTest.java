package dev.dockhand.core.glob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.HostPrograms;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * git's ignore rules as gitignore(5) documents them. The cases are hand-written from the manual's sentences and
 * examples; each names the paths it asks about (a folder with a trailing {@code /}) and those git ignores. The same
 * table is put to the real {@code git check-ignore --no-index} when git is on the PATH.
 */
class IgnoreFileTest {
    /**
     * One tree: its ignore files by path ({@code .git/info/exclude} too), the paths asked about, the ones ignored, and
     * the ones git before 2.52 ignores where that git differs.
     */
    record Case(Map<String, String> ignoreFiles, List<String> paths, Set<String> ignored, Set<String> beforeGit252) {
        /** The same tree, which git before 2.52 reads otherwise: it ignores {@code ignored}. */
        Case beforeGit252(String... ignored) {
            return new Case(ignoreFiles, paths, this.ignored, new TreeSet<>(List.of(ignored)));
        }
    }

    private static Case of(Map<String, String> ignoreFiles, List<String> paths, String... ignored) {
        Set<String> set = new TreeSet<>(List.of(ignored));
        return new Case(ignoreFiles, paths, set, set);
    }

    private static final Map<String, Case> CASES = new LinkedHashMap<>();

    static {
        CASES.put(
                "hello.* matches any file or folder whose name begins with hello., at any depth",
                of(
                        Map.of(".gitignore", "hello.*\n"),
                        List.of("hello.c", "hello.txt/", "sub/hello.h", "hellox.c", "ahello.c"),
                        "hello.c",
                        "hello.txt/",
                        "sub/hello.h"));
        CASES.put(
                "foo/ matches a folder foo and paths under it, not a file foo",
                of(Map.of(".gitignore", "foo/\n"), List.of("foo/x", "a/foo/", "bar/foo"), "foo/x", "a/foo/"));
        CASES.put(
                "doc/frotz/ matches doc/frotz, not a/doc/frotz",
                of(Map.of(".gitignore", "doc/frotz/\n"), List.of("doc/frotz/", "a/doc/frotz/"), "doc/frotz/"));
        CASES.put(
                "frotz/ matches frotz and a/frotz that are folders",
                of(Map.of(".gitignore", "frotz/\n"), List.of("frotz/", "a/frotz/"), "frotz/", "a/frotz/"));
        CASES.put(
                "doc/frotz and /doc/frotz have the same effect: a middle slash anchors",
                of(
                        Map.of(".gitignore", "doc/frotz\n/doc/frotz2\n"),
                        List.of("doc/frotz", "a/doc/frotz", "doc/frotz2", "a/doc/frotz2"),
                        "doc/frotz",
                        "doc/frotz2"));
        CASES.put(
                "foo/* matches foo/test.json and foo/bar, and what is in foo/bar with it",
                of(
                        Map.of(".gitignore", "foo/*\n"),
                        List.of("foo/test.json", "foo/bar/", "foo/bar/hello.c", "foo/"),
                        "foo/test.json",
                        "foo/bar/",
                        "foo/bar/hello.c"));
        CASES.put(
                "**/foo matches foo anywhere; **/foo/bar matches bar directly under a foo",
                of(
                        Map.of(".gitignore", "**/foo\n**/baz/bar\n"),
                        List.of("foo", "a/b/foo", "baz/bar", "x/baz/bar", "x/baz/y/bar"),
                        "foo",
                        "a/b/foo",
                        "baz/bar",
                        "x/baz/bar"));
        CASES.put(
                "abc/** matches everything inside abc, not abc itself",
                of(
                        Map.of(".gitignore", "abc/**\n"),
                        List.of("abc/", "abc/x", "abc/d/", "abc/d/e", "x/abc/y"),
                        "abc/x",
                        "abc/d/",
                        "abc/d/e"));
        CASES.put(
                "a/**/b matches a/b, a/x/b, a/x/y/b",
                of(
                        Map.of(".gitignore", "a/**/b\n"),
                        List.of("a/b", "a/x/b", "a/x/y/b", "a/xb", "ab", "c/a/b"),
                        "a/b",
                        "a/x/b",
                        "a/x/y/b"));
        CASES.put(
                "other runs of asterisks are one asterisk",
                of(Map.of(".gitignore", "x/a**b\n"), List.of("x/ab", "x/axyb", "x/a/b"), "x/ab", "x/axyb"));
        CASES.put(
                "the manual's example: *.[oa] excluded, *.html but foo.html in Documentation",
                of(
                        Map.of(
                                ".git/info/exclude",
                                "# ignore objects and archives, anywhere in the tree.\n*.[oa]\n",
                                "Documentation/.gitignore",
                                "# ignore generated html files,\n*.html\n# except foo.html which is maintained by hand\n"
                                        + "!foo.html\n"),
                        List.of(
                                "Documentation/foo.html",
                                "Documentation/gitignore.html",
                                "file.o",
                                "lib.a",
                                "src/internal.o",
                                "src/main.c",
                                "index.html"),
                        "Documentation/gitignore.html",
                        "file.o",
                        "lib.a",
                        "src/internal.o"));
        CASES.put(
                "the manual's example: everything excluded but the folder foo/bar",
                of(
                        Map.of(
                                ".gitignore",
                                "# exclude everything except directory foo/bar\n/*\n!/foo\n/foo/*\n!/foo/bar\n"),
                        List.of("x", "y/", "foo/", "foo/a", "foo/bar/", "foo/bar/c", "foo/baz/"),
                        "x",
                        "y/",
                        "foo/a",
                        "foo/baz/"));
        CASES.put(
                "a file cannot be re-included when a folder above it is excluded",
                of(
                        Map.of(".gitignore", "build/\n!build/keep.txt\n", "build/.gitignore", "!keep2.txt\n"),
                        List.of("build/keep.txt", "build/keep2.txt", "build/.gitignore"),
                        "build/keep.txt",
                        "build/keep2.txt",
                        "build/.gitignore"));
        CASES.put(
                "a backslash makes a leading # or ! plain; a # line is a comment",
                of(
                        Map.of(".gitignore", "\\#hash\n\\!important!.txt\n#comment\n !space\n"),
                        List.of("#hash", "!important!.txt", "comment", "#comment", " !space"),
                        "#hash",
                        "!important!.txt",
                        " !space"));
        CASES.put(
                "trailing spaces are dropped unless escaped with a backslash",
                of(
                        Map.of(".gitignore", "spaces   \nescaped\\ \ntab\t\n"),
                        List.of("spaces", "spaces ", "escaped ", "escaped", "tab\t", "tab"),
                        "spaces",
                        "escaped ",
                        "tab\t"));
        CASES.put(
                "bracket expressions: ranges, ! and ^ negation, named classes",
                of(
                        Map.of(".gitignore", "[a-c]x\n[!0-9]y\n[[:digit:]]z\n[^q]w\n[]]v\n[\\]]u\n[a-]t\n"),
                        List.of("ax", "dx", "ay", "5y", "7z", "az", "qw", "rw", "]v", "]u", "-t", "bt"),
                        "ax",
                        "ay",
                        "7z",
                        "rw",
                        "]v",
                        "]u",
                        "-t"));
        CASES.put(
                "* and ? never match a slash",
                of(
                        Map.of(".gitignore", "src/*.c\nx/a?b\n"),
                        List.of("src/a.c", "src/lib/a.c", "x/acb", "x/a/b"),
                        "src/a.c",
                        "x/acb"));
        CASES.put(
                "a nearer .gitignore overrides one above it, at any depth below it",
                of(
                        Map.of(".gitignore", "*.tmp\n", "a/b/.gitignore", "!keep.tmp\n"),
                        List.of("a/x.tmp", "a/b/keep.tmp", "a/b/c/keep.tmp", "a/b/other.tmp"),
                        "a/x.tmp",
                        "a/b/other.tmp"));
        CASES.put(
                "a leading slash anchors to the folder of its own file",
                of(
                        Map.of("sub/.gitignore", "/gen/\nlog\n"),
                        List.of("sub/gen/", "sub/x/gen/", "sub/x/log", "gen/", "log"),
                        "sub/gen/",
                        "sub/x/log"));
        CASES.put(
                "the last rule that matches decides",
                of(
                        Map.of(".gitignore", "*.log\n!important.log\nimportant.log.*\n*.bak\n!*.bak\n"),
                        List.of("a.log", "important.log", "important.log.1", "x.bak"),
                        "a.log",
                        "important.log.1"));
        CASES.put(
                "stars after other characters are one star, before a slash too: foo**/bar is foo*/bar (git 2.52 and"
                        + " later; earlier git matched foo as a prefix, then **/bar as if at the start)",
                of(
                                Map.of(".gitignore", "foo**/bar\nd**/bar\n.**/*\n"),
                                List.of(
                                        "foobar",
                                        "foo/bar",
                                        "fooz/bar",
                                        "fooz/q/bar",
                                        "dbar",
                                        "d/bar",
                                        "d/x/bar",
                                        ".hidden/file",
                                        ".gitignore"),
                                "foo/bar",
                                "fooz/bar",
                                "d/bar",
                                ".hidden/file")
                        .beforeGit252(
                                "foobar",
                                "foo/bar",
                                "fooz/bar",
                                "fooz/q/bar",
                                "dbar",
                                "d/bar",
                                "d/x/bar",
                                ".hidden/file",
                                ".gitignore"));
        CASES.put(
                "CRLF line ends, a byte order mark, and a rule git gives up on (an unclosed bracket)",
                of(
                        Map.of(".gitignore", "\uFEFFbom.txt\r\ncrlf.txt\r\n[abc\nok\n"),
                        List.of("bom.txt", "crlf.txt", "[abc", "ok"),
                        "bom.txt",
                        "crlf.txt",
                        "ok"));
    }

    /** Each case's ignored paths, by git's rules, from Dockhand's reading of the files. */
    @Test
    void followsGitignoreAsDocumented() {
        Map<String, Set<String>> expected = new LinkedHashMap<>();
        Map<String, Set<String>> found = new LinkedHashMap<>();
        CASES.forEach((name, test) -> {
            expected.put(name, test.ignored());
            found.put(name, ignoredByDockhand(test));
        });
        assertEquals(expected, found);
    }

    /**
     * The table is what git itself does, not only what its reader took from the manual; before git 2.52 (which fixed
     * how {@code foo**}{@code /bar} was read) the cases where that git differs are checked for its answer.
     */
    @Test
    void theTableIsWhatGitCheckIgnoreSays(@TempDir Path temp) throws Exception {
        assumeTrue(
                HostPrograms.find("git").isPresent(),
                "git is not on the PATH: the table was not put to git check-ignore");
        boolean before252 = before252(run(temp, List.of("--version"), ""));
        Map<String, Set<String>> expected = new LinkedHashMap<>();
        Map<String, Set<String>> found = new LinkedHashMap<>();
        int index = 0;
        for (Map.Entry<String, Case> entry : CASES.entrySet()) {
            expected.put(
                    entry.getKey(),
                    before252
                            ? entry.getValue().beforeGit252()
                            : entry.getValue().ignored());
            found.put(entry.getKey(), ignoredByGit(entry.getValue(), temp.resolve("case" + index++)));
        }
        assertEquals(expected, found);
    }

    /** Whether {@code git --version} printed a version before 2.52 ("git version 2.39.5"). */
    private static boolean before252(String version) {
        Matcher numbers = Pattern.compile("(\\d+)\\.(\\d+)").matcher(version);
        if (!numbers.find()) {
            throw new AssertionError("no version in git --version: " + version);
        }
        int major = Integer.parseInt(numbers.group(1));
        int minor = Integer.parseInt(numbers.group(2));
        return major < 2 || major == 2 && minor < 52;
    }

    /** What one file says of single paths, the parent folders left aside. */
    @Test
    void aFilesVerdictOnOnePath() {
        IgnoreFile file = IgnoreFile.parse("foo/*\n*.log\n!keep.log\n".getBytes(StandardCharsets.UTF_8));
        Map<String, IgnoreFile.Verdict> verdicts = new LinkedHashMap<>();
        for (String path : List.of("foo/bar/hello.c", "foo/test.json", "a.log", "keep.log", "x/keep.log", "a.txt")) {
            verdicts.put(path, file.verdict(path, false));
        }
        verdicts.put("sub/x.log from sub/", file.verdict("sub/x.log", "sub/".length(), false));

        assertEquals(
                Map.of(
                        "foo/bar/hello.c", IgnoreFile.Verdict.UNDECIDED,
                        "foo/test.json", IgnoreFile.Verdict.IGNORED,
                        "a.log", IgnoreFile.Verdict.IGNORED,
                        "keep.log", IgnoreFile.Verdict.NOT_IGNORED,
                        "x/keep.log", IgnoreFile.Verdict.NOT_IGNORED,
                        "a.txt", IgnoreFile.Verdict.UNDECIDED,
                        "sub/x.log from sub/", IgnoreFile.Verdict.IGNORED),
                verdicts);
        assertEquals(
                List.of(true, true),
                List.of(
                        IgnoreFile.parse(new byte[0]).isEmpty(),
                        IgnoreFile.parse("# only\n\n  \n".getBytes()).isEmpty()));
    }

    /** JGit's matcher took 21 s on a 28-character name here, and doubled with every character more. */
    @Test
    void aRuleOfManyStarsIsDecidedQuicklyAgainstALongName() {
        IgnoreFile file = IgnoreFile.parse(
                "*a*a*a*a*a*a*a*a*a*a*a*a*b\n/x/**/*a*a*a*a*a*a*a*a*a*a*a*a*b/\n".getBytes(StandardCharsets.UTF_8));
        String name = "a".repeat(255);
        String deep = "x/" + (name + "/").repeat(10) + name;

        assertEquals(
                List.of(IgnoreFile.Verdict.UNDECIDED, IgnoreFile.Verdict.IGNORED, IgnoreFile.Verdict.UNDECIDED),
                assertTimeoutPreemptively(
                        Duration.ofSeconds(5),
                        () -> List.of(
                                file.verdict(name, false),
                                file.verdict(name.substring(1) + "b", false),
                                file.verdict(deep, true))));
    }

    /**
     * A bracket holding many {@code [:} never closed by {@code :]} is read in one pass: each used to look for the
     * same {@code ]} again, and a 1 MB line took 4.3 s, a 3 MB one 40 s, on the turn's thread at every checkpoint.
     */
    @Test
    void aBracketOfManyUnclosedClassNamesIsReadQuickly() {
        String bracket = "[" + "[:a".repeat(1_000_000) + "]x";

        Wildcard compiled = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> GitPattern.compile(bracket));

        assertEquals(
                List.of(true, true, false),
                List.of(compiled.matches(":x"), compiled.matches("[x"), compiled.matches("bx")));
    }

    /** A line longer than 4096 characters is no rule, and one of 4096 is; so no line costs more to read or match. */
    @Test
    void aRuleLongerThanTheLimitNeverMatches() {
        String longest = "a".repeat(IgnoreFile.MAX_RULE_LENGTH);
        String tooLong = "b".repeat(IgnoreFile.MAX_RULE_LENGTH + 1);
        IgnoreFile file = IgnoreFile.parse((longest + "\n" + tooLong + "\n").getBytes(StandardCharsets.UTF_8));

        assertEquals(
                List.of(IgnoreFile.Verdict.IGNORED, IgnoreFile.Verdict.UNDECIDED),
                List.of(file.verdict(longest, false), file.verdict(tooLong, false)));
    }

    /** Only a file's first MiB is read; the line it cuts is dropped, not read as the part before the cut. */
    @Test
    void onlyTheFirstMebibyteOfAFileIsRead() throws Exception {
        StringBuilder text = new StringBuilder("first.txt\n");
        while (text.length() < IgnoreFile.MAX_BYTES - 3 - 100) {
            text.append("# filler\n");
        }
        text.append("#".repeat(IgnoreFile.MAX_BYTES - 3 - text.length() - 1)).append('\n');
        // Starts 3 bytes before the limit: "str" is all of it the first MiB holds.
        text.append("straddle.txt\nafter.txt\n");
        IgnoreFile file = IgnoreFile.parse(text.toString().getBytes(StandardCharsets.UTF_8));
        // A stream that never ends: reading it stops just past the limit.
        long[] served = {0};
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                served[0]++;
                return served[0] % 2 == 0 ? '\n' : 'x';
            }
        };
        IgnoreFile read = IgnoreFile.read(endless);

        assertEquals(
                List.of(
                        IgnoreFile.Verdict.IGNORED,
                        IgnoreFile.Verdict.UNDECIDED,
                        IgnoreFile.Verdict.UNDECIDED,
                        IgnoreFile.Verdict.UNDECIDED,
                        IgnoreFile.Verdict.IGNORED,
                        (long) IgnoreFile.MAX_BYTES + 1),
                List.of(
                        file.verdict("first.txt", false),
                        file.verdict("str", false),
                        file.verdict("straddle.txt", false),
                        file.verdict("after.txt", false),
                        read.verdict("x", false),
                        served[0]));
    }

    private static Set<String> ignoredByDockhand(Case test) {
        Map<String, IgnoreFile> files = new LinkedHashMap<>();
        test.ignoreFiles()
                .forEach(
                        (path, content) -> files.put(path, IgnoreFile.parse(content.getBytes(StandardCharsets.UTF_8))));
        Set<String> ignored = new TreeSet<>();
        for (String asked : test.paths()) {
            boolean folder = asked.endsWith("/");
            String path = folder ? asked.substring(0, asked.length() - 1) : asked;
            if (ignored(path, folder, files)) {
                ignored.add(asked);
            }
        }
        return ignored;
    }

    /** git's whole rule: a path is ignored when a folder above it is, or else when the nearest file deciding says so. */
    private static boolean ignored(String path, boolean folder, Map<String, IgnoreFile> files) {
        for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
            if (decided(path.substring(0, slash), true, files)) {
                return true;
            }
        }
        return decided(path, folder, files);
    }

    private static boolean decided(String path, boolean folder, Map<String, IgnoreFile> files) {
        for (int slash = path.lastIndexOf('/'); ; slash = path.lastIndexOf('/', slash - 1)) {
            String base = slash < 0 ? "" : path.substring(0, slash + 1);
            IgnoreFile file = files.getOrDefault(base + ".gitignore", IgnoreFile.EMPTY);
            IgnoreFile.Verdict verdict = file.verdict(path, base.length(), folder);
            if (verdict != IgnoreFile.Verdict.UNDECIDED) {
                return verdict == IgnoreFile.Verdict.IGNORED;
            }
            if (slash < 0) {
                break;
            }
        }
        IgnoreFile exclude = files.getOrDefault(".git/info/exclude", IgnoreFile.EMPTY);
        return exclude.verdict(path, folder) == IgnoreFile.Verdict.IGNORED;
    }

    /** The paths {@code git check-ignore --no-index} reports ignored (by a rule that is not negated), in a real tree. */
    private static Set<String> ignoredByGit(Case test, Path tree) throws Exception {
        Files.createDirectories(tree);
        run(tree, List.of("init", "-q"), "");
        for (Map.Entry<String, String> file : test.ignoreFiles().entrySet()) {
            Path path = tree.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
        StringBuilder input = new StringBuilder();
        for (String asked : test.paths()) {
            Path path = tree.resolve(asked);
            if (asked.endsWith("/")) {
                Files.createDirectories(path);
            } else if (!Files.exists(path)) {
                Files.createDirectories(path.getParent());
                Files.createFile(path);
            }
            input.append(asked.endsWith("/") ? asked.substring(0, asked.length() - 1) : asked)
                    .append('\0');
        }
        String output = run(tree, List.of("check-ignore", "--no-index", "-v", "-n", "-z", "--stdin"), input.toString());
        // Four fields a path: source, line, pattern, path.
        String[] fields = output.split("\0", -1);
        Set<String> ignored = new TreeSet<>();
        for (int i = 0; i + 3 < fields.length; i += 4) {
            String pattern = fields[i + 2];
            String path = fields[i + 3];
            if (!pattern.isEmpty() && !pattern.startsWith("!")) {
                ignored.add(test.paths().contains(path + "/") ? path + "/" : path);
            }
        }
        return ignored;
    }

    private static String run(Path folder, List<String> args, String input) throws Exception {
        List<String> command =
                new ArrayList<>(List.of("git", "-c", "core.excludesFile=/dev/null", "-C", folder.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        builder.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        Process git = builder.start();
        try (var in = git.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!git.waitFor(60, TimeUnit.SECONDS)) {
            git.destroyForcibly();
        }
        return output;
    }
}
