package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadFileToolTest {
    @TempDir
    Path workspace;

    @TempDir
    Path outside;

    private final ReadFileTool tool = new ReadFileTool();

    private ToolResult read(String path, Integer offset, Integer limit) {
        return tool.execute(
                new ReadFileTool.Params(path, offset, limit),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
    }

    @Test
    void returnsNumberedLines() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "alpha\nbeta\n");

        assertEquals(ToolResult.success("     1\talpha\n     2\tbeta\n", "read 2 lines"), read("a.txt", null, null));
    }

    @Test
    void readsAWindowAndSaysWhereToContinue() throws Exception {
        String text = IntStream.rangeClosed(1, 10).mapToObj(i -> "l" + i).collect(Collectors.joining("\n"));
        Files.writeString(workspace.resolve("b.txt"), text);

        assertEquals(
                ToolResult.success(
                        "     4\tl4\n     5\tl5\n\n[Showing lines 4-5 of 10. The file continues:"
                                + " call read_file with offset=6 to read more.]\n",
                        "read 2 lines"),
                read("b.txt", 4, 2));
    }

    @Test
    void cutsVeryLongLines() throws Exception {
        Files.writeString(workspace.resolve("long.txt"), "x".repeat(2500));

        assertEquals(
                ToolResult.success(
                        "     1\t" + "x".repeat(2000) + " [… line cut: 2500 characters in all]\n", "read 1 line"),
                read("long.txt", null, null));
    }

    @Test
    void defaultsToTwoThousandLines() throws Exception {
        String text = IntStream.rangeClosed(1, 2500).mapToObj(Integer::toString).collect(Collectors.joining("\n"));
        Files.writeString(workspace.resolve("big.txt"), text);

        ToolResult result = read("big.txt", null, null);

        assertEquals("read 2000 lines", result.display());
        assertEquals(
                true,
                result.llmContent()
                        .endsWith("[Showing lines 1-2000 of 2500. The file continues: call"
                                + " read_file with offset=2001 to read more.]\n"));
    }

    @Test
    void refusesBinaryFilesWithTheirSize() throws Exception {
        Files.write(workspace.resolve("blob.bin"), new byte[] {1, 0, 2, 3});

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS, "blob.bin is a binary file (4 B); read_file only reads text."),
                read("blob.bin", null, null));
    }

    @Test
    void namesTheKindOfKnownBinaryFiles() throws Exception {
        Files.write(workspace.resolve("logo.dat"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0});

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "logo.dat is a binary file (9 B, PNG image); read_file only reads text."),
                read("logo.dat", null, null));
    }

    @Test
    void reportsMissingFiles() {
        assertEquals(
                ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "File not found: nope.txt."),
                read("nope.txt", null, null));
    }

    @Test
    void reportsAnOffsetPastTheEnd() throws Exception {
        Files.writeString(workspace.resolve("c.txt"), "one\n");

        assertEquals(
                ToolResult.error(ToolErrorType.INVALID_PARAMS, "offset 5 is past the end of c.txt, which has 1 lines."),
                read("c.txt", 5, null));
    }

    @Test
    void refusesPathsOutsideTheWorkspace() {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                read("../etc/passwd", null, null).error().get());
    }

    @Test
    void saysWhenAFileIsEmpty() throws Exception {
        Files.writeString(workspace.resolve("empty.txt"), "");

        assertEquals(ToolResult.success("(empty.txt is empty)", "empty file"), read("empty.txt", null, null));
    }

    @Test
    void readsThroughASymlinkedFolderThatStaysInside() throws Exception {
        Files.createDirectories(workspace.resolve("real"));
        Files.writeString(workspace.resolve("real/a.txt"), "alpha\n");
        Files.createSymbolicLink(workspace.resolve("alias"), workspace.resolve("real"));

        assertEquals(ToolResult.success("     1\talpha\n", "read 1 line"), read("alias/a.txt", null, null));
    }

    @Test
    void refusesAFileBehindASymlinkOutside() throws Exception {
        Files.writeString(outside.resolve("secret.txt"), "the secret\n");
        Files.createSymbolicLink(workspace.resolve("link"), outside);

        ToolResult result = read("link/secret.txt", null, null);

        assertEquals(ToolErrorType.PATH_OUTSIDE_WORKSPACE, result.error().get());
        assertFalse(result.llmContent().contains("the secret"), result.llmContent());
    }
}
