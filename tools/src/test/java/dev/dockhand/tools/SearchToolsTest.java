package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** list_directory, glob and grep over one fixture tree with .gitignore rules, .git, binaries and a symlink. */
class SearchToolsTest {
    @TempDir
    Path temp;

    private Path workspace;
    private ToolContext context;

    private void write(String path, String content) throws Exception {
        Path file = workspace.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @BeforeEach
    void tree() throws Exception {
        workspace = Files.createDirectories(temp.resolve("project")).toRealPath();
        write(".gitignore", "build/\n*.log\n");
        write("src/main/App.java", "class App {\n  // TODO wire\n}\n");
        write("src/main/Util.java", "class Util {\n  static int todo = 1; // TODO later\n}\n");
        write("src/test/AppTest.java", "class AppTest {}\n");
        write("src/.gitignore", "generated/\n");
        write("src/generated/Gen.java", "// TODO generated\n");
        write("build/out/App.class", "TODO in build output\n");
        write("debug.log", "TODO in a log\n");
        write(".git/HEAD", "TODO ref\n");
        write(".github/workflow.yml", "# TODO ci\n");
        write("README.md", "# Project\n");
        Files.write(workspace.resolve("data.bin"), new byte[] {'T', 'O', 'D', 'O', 0, 1});
        Files.createDirectories(temp.resolve("outside"));
        Files.writeString(temp.resolve("outside/secret.java"), "TODO secret\n");
        Files.createSymbolicLink(workspace.resolve("link"), temp.resolve("outside"));
        Files.setLastModifiedTime(
                workspace.resolve("src/main/Util.java"), FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));
        Files.setLastModifiedTime(
                workspace.resolve("src/main/App.java"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        context = TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
    }

    @Test
    void listDirectoryShowsFoldersFirstWithSizesAndHidesIgnoredEntries() {
        ToolResult result = new ListDirectoryTool().execute(new ListDirectoryTool.Params(null, null), context);

        assertEquals(
                ToolResult.success(
                        ".: 2 folders, 4 files (3 ignored entries not shown)\n"
                                + ".github/\nsrc/\n.gitignore  13 B\nREADME.md  10 B\ndata.bin  6 B\nlink -> symlink\n",
                        "2 folders, 4 files"),
                result);
    }

    @Test
    void listDirectoryTakesIgnoreGlobsAndSubFolders() {
        ToolResult result =
                new ListDirectoryTool().execute(new ListDirectoryTool.Params("src", List.of("test")), context);

        assertEquals(
                "src: 1 folder, 1 file (2 ignored entries not shown)\nmain/\n.gitignore  11 B\n", result.llmContent());
    }

    @Test
    void listDirectoryReportsAMissingFolder() {
        assertEquals(
                ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "Folder not found: nope."),
                new ListDirectoryTool().execute(new ListDirectoryTool.Params("nope", null), context));
    }

    @Test
    void globMatchesAtAnyDepthNewestFirstSkippingIgnoredFiles() throws Exception {
        ToolResult result = new GlobTool().execute(new GlobTool.Params("**/*.java", null), context);

        List<String> lines = result.llmContent().lines().toList();
        assertEquals("src/main/Util.java", lines.get(0));
        assertEquals("src/main/App.java", lines.get(lines.size() - 1));
        assertEquals(
                List.of("src/main/App.java", "src/main/Util.java", "src/test/AppTest.java"),
                lines.stream().sorted().toList());
    }

    @Test
    void globInASubFolderAndWithNoMatch() throws Exception {
        assertEquals(
                "src/test/AppTest.java\n",
                new GlobTool()
                        .execute(new GlobTool.Params("*Test.java", "src/test"), context)
                        .llmContent());
        assertEquals(
                "No files match *.rs in ..",
                new GlobTool()
                        .execute(new GlobTool.Params("*.rs", null), context)
                        .llmContent());
    }

    @Test
    void globRejectsAnInvalidPattern() {
        assertTrue(new GlobTool().validate(new GlobTool.Params("src/[a", null)).isPresent());
    }

    @Test
    void grepInJavaFindsMatchesGroupedByFileAndSkipsIgnoredBinaryAndLinkedFiles() throws Exception {
        ToolResult result =
                new GrepTool(Optional.empty()).execute(new GrepTool.Params("TODO", null, null, null, null), context);

        assertEquals(
                ToolResult.success(
                        "3 matches in 3 files:\n"
                                + ".github/workflow.yml:1:# TODO ci\n"
                                + "src/main/App.java:2:  // TODO wire\n"
                                + "src/main/Util.java:2:  static int todo = 1; // TODO later\n",
                        "3 matches in 3 files"),
                result);
    }

    @Test
    void grepHonoursCaseGlobPathAndMaxResults() throws Exception {
        GrepTool grep = new GrepTool(Optional.empty());

        assertEquals(
                "1 match in 1 file:\nsrc/main/Util.java:2:  static int todo = 1; // TODO later\n",
                grep.execute(new GrepTool.Params("todo", "src", "*.java", null, null), context)
                        .llmContent());
        assertEquals(
                "First 1 match in 1 file (more exist; narrow the pattern, path or glob, or raise"
                        + " max_results):\n.github/workflow.yml:1:# TODO ci\n",
                grep.execute(new GrepTool.Params("todo", null, null, true, 1), context)
                        .llmContent());
        assertEquals(
                "No matches for nothing-here.",
                grep.execute(new GrepTool.Params("nothing-here", null, null, null, null), context)
                        .llmContent());
    }

    @Test
    void grepRejectsAnInvalidRegex() {
        assertEquals(
                Optional.of("the pattern is not a valid Java regular expression: Unclosed group near index 4."),
                new GrepTool(Optional.empty()).validate(new GrepTool.Params("(abc", null, null, null, null)));
    }

    @Test
    void ripgrepAndTheJavaSearchGiveTheSameOutput() throws Exception {
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        assumeTrue(ripgrep.isPresent(), "ripgrep (rg) is not installed; the Java search alone was tested");
        for (GrepTool.Params params : List.of(
                new GrepTool.Params("TODO", null, null, null, null),
                new GrepTool.Params("todo", null, null, true, null),
                new GrepTool.Params("class \\w+", "src", null, null, null),
                new GrepTool.Params("TODO", null, "*.java", null, null),
                new GrepTool.Params("TODO", null, "src/main/*.java", null, null),
                new GrepTool.Params("TODO", null, null, null, 2),
                new GrepTool.Params("(?<=// )TODO", null, null, null, null))) {
            ToolResult fast = new GrepTool(ripgrep).execute(params, context);
            ToolResult java = new GrepTool(Optional.empty()).execute(params, context);
            assertEquals(java, fast, "for " + params);
        }
    }

    @Test
    void searchesRefuseFoldersOutsideTheWorkspace() throws Exception {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                new GrepTool(Optional.empty())
                        .execute(new GrepTool.Params("x", "link", null, null, null), context)
                        .error()
                        .get());
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                new GlobTool()
                        .execute(new GlobTool.Params("*", "../outside"), context)
                        .error()
                        .get());
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                new ListDirectoryTool()
                        .execute(new ListDirectoryTool.Params("/etc", null), context)
                        .error()
                        .get());
    }

    /**
     * A stand-in for ripgrep that prints the given match events whatever it is asked: what a real one prints after it
     * followed a folder that a command swapped for a symlink while it ran.
     */
    private Ripgrep ripgrepPrinting(String... matches) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "the stand-in for ripgrep is a shell script");
        Path script = Files.createDirectories(temp.resolve("bin")).resolve("rg");
        Files.writeString(script, "#!/bin/sh\ncat <<'EOF'\n" + String.join("\n", matches) + "\nEOF\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return new Ripgrep(script);
    }

    /** One match event in ripgrep's --json output. */
    private static String match(String path, long line, String text) {
        ObjectNode data = Json.MAPPER.createObjectNode();
        data.putObject("path").put("text", path);
        data.putObject("lines").put("text", text + "\n");
        data.put("line_number", line);
        ObjectNode event = Json.MAPPER.createObjectNode().put("type", "match");
        event.set("data", data);
        return event.toString();
    }

    @Test
    void ripgrepsAnswerIsUsedWhenEachLineReadsTheSameInsideTheWorkspace() throws Exception {
        Ripgrep ripgrep = ripgrepPrinting(match("src/main/App.java", 2, "  // TODO wire"));

        assertEquals(
                ToolResult.success("1 match in 1 file:\nsrc/main/App.java:2:  // TODO wire\n", "1 match in 1 file"),
                new GrepTool(Optional.of(ripgrep))
                        .execute(new GrepTool.Params("TODO", null, null, null, null), context));
    }

    @Test
    void ripgrepsAnswerIsDroppedForTheJavaSearchWhenALineCannotBeConfirmedInsideTheWorkspace() throws Exception {
        GrepTool.Params params = new GrepTool.Params("TODO", null, null, null, null);
        ToolResult java = new GrepTool(Optional.empty()).execute(params, context);
        for (String reported : List.of(
                // Read through the link to the folder outside.
                match("link/secret.java", 1, "TODO secret"),
                // A line the file inside does not hold (ripgrep read another file by that name).
                match("src/main/App.java", 2, "TODO secret"))) {
            assertEquals(java, new GrepTool(Optional.of(ripgrepPrinting(reported))).execute(params, context), reported);
        }
    }
}
