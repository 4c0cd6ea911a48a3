package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.WorkspaceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * glob through {@code rg --files} and through the Java walk give the same result, whole, on the same trees: ignore
 * rules at depth with negations, hidden files, links, odd names, equal times; and where ripgrep's rules would differ
 * (a nested repository, a {@code .rgignore}, {@code .git/info/exclude}, a .gitignore rule read otherwise or linked
 * from outside) the Java walk answers.
 */
class GlobRipgrepTest {
    private static final FileTime OLD = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    private static final FileTime NEW = FileTime.from(Instant.parse("2030-01-01T00:00:00Z"));

    @TempDir
    Path temp;

    private Path workspace;
    private ToolContext context;

    private void write(String path, FileTime modified) throws Exception {
        Path file = workspace.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, path + "\n");
        Files.setLastModifiedTime(file, modified);
    }

    private void shell(String script) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "names the JDK cannot write are made by /bin/sh");
        Process process = new ProcessBuilder("/bin/sh", "-c", script)
                .directory(workspace.toFile())
                .inheritIO()
                .start();
        assertEquals(0, process.waitFor(), script);
    }

    @BeforeEach
    void tree() throws Exception {
        workspace = Files.createDirectories(temp.resolve("project")).toRealPath();
        write(".gitignore", OLD);
        Files.writeString(workspace.resolve(".gitignore"), "resources/\n/generated/\n*.tmp\nbuild\n!/src/build\n");
        write("src/main/App.java", NEW);
        write("src/main/Util.java", OLD);
        write("src/main/Zed.java", OLD);
        write("src/test/AppTest.java", NEW);
        write("src/main/resources/R.java", NEW);
        write("src/generated/Kept.java", OLD);
        write("generated/Gone.java", OLD);
        write("src/build/Kept.java", OLD);
        write("lib/build/Gone.java", OLD);
        write("src/.gitignore", OLD);
        Files.writeString(workspace.resolve("src/.gitignore"), "!keep.tmp\n*.java~\n");
        write("src/keep.tmp", OLD);
        write("src/main/App.java~", OLD);
        write("x.tmp", OLD);
        write("Top.java", OLD);
        write("top.JAVA", OLD);
        write(".env", OLD);
        write(".github/workflows/ci.yml", OLD);
        write(".git/HEAD", OLD);
        write("docs/Guide [draft].md", OLD);
        write("docs/{braces}.md", OLD);
        Files.createDirectories(temp.resolve("outside"));
        Files.writeString(temp.resolve("outside/Secret.java"), "secret\n");
        Files.createSymbolicLink(workspace.resolve("link"), temp.resolve("outside"));
        Files.createSymbolicLink(workspace.resolve("src/main/Alias.java"), workspace.resolve("src/main/App.java"));
        shell("printf x > \"$(printf 'odd\\nline.java')\" && printf x > \"$(printf 'bad\\377name.java')\""
                + " && mkfifo pipe.java && touch -d 2020-01-01T00:00:00Z \"$(printf 'odd\\nline.java')\"");
        context = TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
    }

    private Ripgrep ripgrep() {
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        assumeTrue(ripgrep.isPresent(), "ripgrep (rg) is not installed; the Java walk alone was tested");
        return ripgrep.get();
    }

    /** Whether ripgrep's list answered, rather than the Java walk it hands over to. */
    private boolean ripgrepAnswers(Ripgrep ripgrep, GlobTool.Params params) throws Exception {
        try (WorkspaceFile start = context.workspace().openForRead(params.path() == null ? "." : params.path())) {
            return RipgrepFiles.find(ripgrep, start, GlobTool.matching(params.pattern()), context)
                    .isPresent();
        }
    }

    private static final List<GlobTool.Params> SEARCHES = List.of(
            new GlobTool.Params("**/*.java", null),
            new GlobTool.Params("*.java", null),
            new GlobTool.Params("*.JAVA", null),
            new GlobTool.Params("src/*/*.java", null),
            new GlobTool.Params("src/**", null),
            new GlobTool.Params("**/*.{java,tmp}", null),
            new GlobTool.Params("**/.*", null),
            new GlobTool.Params("**/[A-T]*.java", null),
            new GlobTool.Params("**/resources/*.java", null),
            new GlobTool.Params("**/*line*", null),
            new GlobTool.Params("*name.java", null),
            new GlobTool.Params("docs/*[[]draft]*", null),
            new GlobTool.Params("docs/\\{*", null),
            new GlobTool.Params("**", null),
            new GlobTool.Params("*.java", "src/main"),
            new GlobTool.Params("**/*", "src"),
            new GlobTool.Params("**/*.java", "link"));

    private void assertSame(Ripgrep ripgrep, GlobTool.Params params) throws Exception {
        assertEquals(
                GlobTool.withoutRipgrep().execute(params, context),
                new GlobTool(Optional.of(ripgrep)).execute(params, context),
                "for " + params);
    }

    @Test
    void ripgrepAndTheJavaWalkGiveTheSameFilesInTheSameOrder() throws Exception {
        Ripgrep ripgrep = ripgrep();
        List<String> walkedByJava = new ArrayList<>();
        for (GlobTool.Params params : SEARCHES) {
            assertSame(ripgrep, params);
            if (!"link".equals(params.path()) && !ripgrepAnswers(ripgrep, params)) {
                walkedByJava.add(params.pattern());
            }
        }
        assertEquals(List.of(), walkedByJava);
    }

    @Test
    void theJavaWalkAnswersWhereRipgrepsIgnoreRulesWouldDiffer() throws Exception {
        Ripgrep ripgrep = ripgrep();
        GlobTool.Params all = new GlobTool.Params("**", null);
        // A nested repository: ripgrep would stop applying the .gitignore above it (*.tmp).
        write("vendor/lib/.git/HEAD", OLD);
        write("vendor/lib/nested.tmp", OLD);
        assertSame(ripgrep, all);
        assertSame(ripgrep, new GlobTool.Params("**", "vendor/lib"));
        assertEquals(
                List.of(false, false),
                List.of(
                        ripgrepAnswers(ripgrep, all),
                        ripgrepAnswers(ripgrep, new GlobTool.Params("**", "vendor/lib"))));
        Files.delete(workspace.resolve("vendor/lib/.git/HEAD"));
        Files.delete(workspace.resolve("vendor/lib/.git"));

        // A .rgignore, which ripgrep 13 reads whatever the flags say.
        write("src/.rgignore", OLD);
        Files.writeString(workspace.resolve("src/.rgignore"), "*.java\n");
        assertSame(ripgrep, all);
        assertEquals(false, ripgrepAnswers(ripgrep, all));
        Files.delete(workspace.resolve("src/.rgignore"));

        // A .rgignore that ignores itself never shows in ripgrep's list; its folder's other files lead to it.
        write("src/.rgignore", OLD);
        Files.writeString(workspace.resolve("src/.rgignore"), ".rgignore\nApp.java\n");
        assertSame(ripgrep, all);
        assertEquals(false, ripgrepAnswers(ripgrep, all));
        Files.delete(workspace.resolve("src/.rgignore"));

        // Rules that ripgrep's glob syntax reads otherwise than git's: braces, a character class, a trailing tab; and
        // those the walk does not read at all: a rule longer than 4096 characters, one after the file's first MiB.
        write("rules/a.txt", OLD);
        write("rules/1.txt", OLD);
        write("rules/{a,b}.txt", OLD);
        for (String rule : List.of(
                "{a,b}.txt\n",
                "[[:digit:]].txt\n",
                "a.txt\t\n",
                "a.tx[" + "t".repeat(4100) + "]\n",
                "# filler\n".repeat(120_000) + "a.txt\n")) {
            Files.writeString(workspace.resolve("rules/.gitignore"), "# rules\n" + rule);
            assertSame(ripgrep, all);
            assertSame(ripgrep, new GlobTool.Params("**", "rules"));
            assertEquals(
                    List.of(false, false),
                    List.of(ripgrepAnswers(ripgrep, all), ripgrepAnswers(ripgrep, new GlobTool.Params("**", "rules"))),
                    rule.substring(0, Math.min(rule.length(), 40)));
        }
        // Those both read alike leave ripgrep to answer.
        Files.writeString(workspace.resolve("rules/.gitignore"), "# {comment}\r\na.txt  \r\n**/1.*\r\n[!x]*/**\n");
        assertSame(ripgrep, all);
        assertEquals(true, ripgrepAnswers(ripgrep, all));

        // A .gitignore linked from outside the workspace: ripgrep follows the link, the walk reads no rule from it.
        Files.delete(workspace.resolve("rules/.gitignore"));
        Files.writeString(temp.resolve("outside/ignore"), "*.txt\n");
        Files.createSymbolicLink(workspace.resolve("rules/.gitignore"), temp.resolve("outside/ignore"));
        write("rules/kept.md", OLD);
        assertSame(ripgrep, all);
        assertEquals(false, ripgrepAnswers(ripgrep, all));
        Files.delete(workspace.resolve("rules/.gitignore"));

        // Rules in .git/info/exclude, which ripgrep would read in nested repositories too.
        write(".git/info/exclude", OLD);
        Files.writeString(workspace.resolve(".git/info/exclude"), "# comment\n*.md\n");
        assertSame(ripgrep, all);
        assertEquals(false, ripgrepAnswers(ripgrep, all));
        Files.writeString(workspace.resolve(".git/info/exclude"), "# only a comment, as git init writes it\n");
        assertSame(ripgrep, all);
        assertEquals(true, ripgrepAnswers(ripgrep, all));

        // Outside a repository, ripgrep reads the .gitignore files above the workspace for a sub-folder's search.
        for (String gone : List.of(".git/info/exclude", ".git/info", ".git/HEAD", ".git")) {
            Files.delete(workspace.resolve(gone));
        }
        Files.writeString(temp.resolve(".gitignore"), "*.md\n");
        GlobTool.Params docs = new GlobTool.Params("*", "docs");
        assertSame(ripgrep, docs);
        assertSame(ripgrep, all);
        assertEquals(List.of(false, true), List.of(ripgrepAnswers(ripgrep, docs), ripgrepAnswers(ripgrep, all)));
    }

    /**
     * A stand-in for ripgrep that lists the given paths whatever it is asked: what a real one lists after it followed
     * a folder that a command swapped for a symlink while it ran.
     */
    private Ripgrep ripgrepListing(String... paths) throws Exception {
        Path script = Files.createDirectories(temp.resolve("bin")).resolve("rg");
        StringBuilder printf = new StringBuilder();
        for (String path : paths) {
            printf.append("./").append(path).append("\\0");
        }
        Files.writeString(script, "#!/bin/sh\nprintf '" + printf + "'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return new Ripgrep(script);
    }

    @Test
    void aFileRipgrepFoundThroughALinkIsLeftOut() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "the stand-in for ripgrep is a shell script");
        Ripgrep ripgrep = ripgrepListing("link/Secret.java", "src/main/Alias.java", "src/main/App.java");

        assertEquals(
                ToolResult.success("src/main/App.java\n", "1 file"),
                new GlobTool(Optional.of(ripgrep)).execute(new GlobTool.Params("**/*.java", null), context));
    }
}
