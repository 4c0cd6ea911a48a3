package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grep over the {@link SearchTree}, in Java and through ripgrep: the same output, ignored, binary and linked files
 * skipped, and ripgrep's answer kept only where each line is confirmed inside the workspace.
 */
class GrepToolTest {
    @TempDir
    Path temp;

    private ToolContext context;

    @BeforeEach
    void tree() throws Exception {
        context = SearchTree.build(temp);
    }

    @Test
    void theJavaSearchFindsMatchesGroupedByFileAndSkipsIgnoredBinaryAndLinkedFiles() throws Exception {
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
    void honoursCaseGlobPathAndMaxResults() throws Exception {
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
    void rejectsAnInvalidRegex() {
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
    void refusesAFolderLinkedFromOutsideTheWorkspace() throws Exception {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                new GrepTool(Optional.empty())
                        .execute(new GrepTool.Params("x", "link", null, null, null), context)
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

    @Test
    void aLongMatchingLineCutInsideAnEmojiKeepsWholeCharacters() throws Exception {
        // U+1F600 is two chars; the 500-char cut falls between them.
        Files.writeString(temp.resolve("project/emoji.txt"), "x".repeat(499) + "\uD83D\uDE00 TODO\n");
        GrepTool.Params params = new GrepTool.Params("TODO", "emoji.txt", null, null, null);
        ToolResult expected = ToolResult.success(
                "1 match in 1 file:\nemoji.txt:1:" + "x".repeat(499) + " [… line cut]\n", "1 match in 1 file");

        assertEquals(expected, new GrepTool(Optional.empty()).execute(params, context));
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        if (ripgrep.isPresent()) {
            assertEquals(expected, new GrepTool(ripgrep).execute(params, context));
        }
    }

    @Test
    void aPipeNamedAsThePathIsRefusedWithoutReadingIt() throws Exception {
        Path pipe = temp.resolve("project/pipe");
        try {
            int made = new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor();
            assumeTrue(made == 0, "mkfifo failed; a pipe could not be made");
        } catch (java.io.IOException noMkfifo) {
            assumeTrue(false, "mkfifo is not installed; a pipe could not be made");
        }
        GrepTool.Params params = new GrepTool.Params("TODO", "pipe", null, null, null);
        ToolResult refused = ToolResult.error(
                ToolErrorType.IO_ERROR,
                "pipe is not a regular file or a folder (a pipe, socket or device); grep only searches files and"
                        + " folders.");

        // Preemptively: before the fix, ripgrep waited for a writer to the pipe for as long as the test ran.
        assertEquals(refused, assertTimeoutPreemptively(Duration.ofSeconds(30), () -> new GrepTool(Optional.empty())
                .execute(params, context)));
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        if (ripgrep.isPresent()) {
            assertEquals(refused, assertTimeoutPreemptively(Duration.ofSeconds(30), () -> new GrepTool(ripgrep)
                    .execute(params, context)));
        }
    }
}
