package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteFileToolTest {
    @TempDir
    Path workspace;

    @TempDir
    Path outside;

    private final WriteFileTool tool = new WriteFileTool();

    private ToolResult write(String path, String content) {
        return tool.execute(
                new WriteFileTool.Params(path, content),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
    }

    @Test
    void createsAFileAndItsFolders() throws Exception {
        assertEquals(
                ToolResult.success("Created src/app/Main.java (2 lines).", "Created src/app/Main.java (2 lines)."),
                write("src/app/Main.java", "class Main {\n}\n"));
        assertEquals("class Main {\n}\n", Files.readString(workspace.resolve("src/app/Main.java")));
    }

    @Test
    void previewOfANewFileIsADiffFromNothing() {
        assertEquals(
                Optional.of("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"),
                tool.preview(new WriteFileTool.Params("n.txt", "one\ntwo\n"), Workspace.of(workspace)));
        assertFalse(Files.exists(workspace.resolve("n.txt")));
    }

    @Test
    void previewOfAnExistingFileIsTheDiffOfTheWholeReplacement() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "one\ntwo\n");

        assertEquals(
                Optional.of("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+deux\n"),
                tool.preview(new WriteFileTool.Params("a.txt", "one\ndeux\n"), Workspace.of(workspace)));
        assertEquals("one\ntwo\n", Files.readString(workspace.resolve("a.txt")));
    }

    @Test
    void previewOfARewriteOfManyLinesSaysWhatItReplacesInsteadOfADiff() throws Exception {
        // Diffed whole, a 20,000-line rewrite kept the approval question waiting 13 s.
        Files.writeString(
                workspace.resolve("big.txt"),
                IntStream.range(0, 20_000).mapToObj(i -> "old " + i + "\n").collect(Collectors.joining()));
        String content =
                IntStream.range(0, 20_000).mapToObj(i -> "new " + i + "\n").collect(Collectors.joining());

        assertEquals(
                Optional.of("(big.txt: replaces 20000 lines with 20000 lines; too many changed lines to show as a"
                        + " diff)\n"),
                assertTimeoutPreemptively(
                        Duration.ofSeconds(10),
                        () -> tool.preview(new WriteFileTool.Params("big.txt", content), Workspace.of(workspace))));
    }

    @Test
    void overwritesAndLeavesNoTemporaryFileBehind() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "old");

        assertEquals("Overwrote a.txt (1 line).", write("a.txt", "new\n").llmContent());
        assertEquals("new\n", Files.readString(workspace.resolve("a.txt")));
        try (Stream<Path> files = Files.list(workspace)) {
            assertEquals(List.of(workspace.resolve("a.txt")), files.toList());
        }
    }

    @Test
    void keepsCrlfLineEndingsOfAnExistingFile() throws Exception {
        Files.writeString(workspace.resolve("win.txt"), "one\r\ntwo\r\n");

        write("win.txt", "uno\ndos\n");

        assertEquals("uno\r\ndos\r\n", Files.readString(workspace.resolve("win.txt")));
    }

    @Test
    void keepsAnExecutableScriptExecutable() throws Exception {
        Path script = workspace.resolve("run.sh");
        Files.writeString(script, "#!/bin/sh\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));

        write("run.sh", "#!/bin/sh\necho hi\n");

        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(script)));
    }

    @Test
    void refusesToWriteOutsideTheWorkspace() {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                write("../escape.txt", "x").error().get());
        assertEquals(false, Files.exists(workspace.resolveSibling("escape.txt")));
    }

    @Test
    void refusesToReplaceADirectory() throws Exception {
        Files.createDirectories(workspace.resolve("dir"));

        assertEquals(
                ToolResult.error(ToolErrorType.INVALID_PARAMS, "dir is a directory; give a file path."),
                write("dir", "x"));
    }

    @Test
    void refusesToWriteThroughASymlinkToAFileOutsideAndLeavesItUnchanged() throws Exception {
        Path secret = Files.writeString(outside.resolve("secret.txt"), "the secret\n");
        Files.createSymbolicLink(workspace.resolve("link.txt"), secret);

        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                write("link.txt", "overwritten\n").error().get());
        assertEquals("the secret\n", Files.readString(secret));
        assertEquals(List.of(workspace.resolve("link.txt")), entries(workspace));
        assertEquals(List.of(secret), entries(outside));
    }

    @Test
    void writesThroughASymlinkedFolderThatStaysInside() throws Exception {
        Files.createDirectories(workspace.resolve("real"));
        Files.createSymbolicLink(workspace.resolve("alias"), workspace.resolve("real"));

        assertEquals(
                "Created alias/new.txt (1 line).",
                write("alias/new.txt", "new\n").llmContent());
        assertEquals("new\n", Files.readString(workspace.resolve("real/new.txt")));
        assertEquals(List.of(workspace.resolve("real/new.txt")), entries(workspace.resolve("real")));
    }

    @Test
    void replacesTheTargetOfASymlinkInsideAndKeepsTheLink() throws Exception {
        Files.writeString(workspace.resolve("target.txt"), "old\n");
        Files.createSymbolicLink(workspace.resolve("link.txt"), workspace.resolve("target.txt"));

        assertEquals("Overwrote link.txt (1 line).", write("link.txt", "new\n").llmContent());
        assertEquals("new\n", Files.readString(workspace.resolve("target.txt")));
        assertEquals(true, Files.isSymbolicLink(workspace.resolve("link.txt")));
    }

    private static List<Path> entries(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.sorted().toList();
        }
    }
}
