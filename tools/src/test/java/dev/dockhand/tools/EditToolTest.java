package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EditToolTest {
    @TempDir
    Path workspace;

    @TempDir
    Path outside;

    private final EditTool tool = new EditTool();

    private ToolResult edit(String path, String oldString, String newString, Boolean replaceAll) {
        return tool.execute(
                new EditTool.Params(path, oldString, newString, replaceAll),
                TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS));
    }

    private Path file(String name, String content) throws Exception {
        Path file = workspace.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return file;
    }

    @Test
    void replacesTheOnlyOccurrenceAndReturnsADiff() throws Exception {
        Path file = file("App.java", "class App {\n    int x = 1;\n}\n");

        ToolResult result = edit("App.java", "int x = 1;", "int x = 2;", null);

        assertEquals(
                ToolResult.success(
                        "Edited App.java: 1 replacement (+1 -1).\n"
                                + "--- a/App.java\n+++ b/App.java\n@@ -1,3 +1,3 @@\n class App {\n-    int x = 1;\n+    int x = 2;\n }\n",
                        "Edited App.java: 1 replacement (+1 -1)"),
                result);
        assertEquals("class App {\n    int x = 2;\n}\n", Files.readString(file));
    }

    @Test
    void previewShowsTheDiffWithoutWriting() throws Exception {
        Path file = file("a.txt", "one\ntwo\n");

        Optional<String> preview =
                tool.preview(new EditTool.Params("a.txt", "two", "deux", null), Workspace.of(workspace));

        assertEquals(Optional.of("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+deux\n"), preview);
        assertEquals("one\ntwo\n", Files.readString(file));
    }

    @Test
    void noMatchShowsTheClosestLines() throws Exception {
        file("b.py", "def f():\n    return 1\n\ndef g():\n    return 2\n");

        ToolResult result = edit("b.py", "def g():\n  return 2", "def g():\n  return 3", null);

        assertEquals(
                ToolResult.error(
                        ToolErrorType.EDIT_NO_MATCH,
                        "old_string was not found in b.py. It matches"
                                + " if whitespace is ignored: check indentation and line breaks. The closest lines are:\n"
                                + "     2\t    return 1\n     3\t\n     4\tdef g():\n     5\t    return 2\n"),
                result);
    }

    @Test
    void severalMatchesWithoutReplaceAllNameTheirLines() throws Exception {
        file("c.txt", "x\ny\nx\nz\nx\n");

        assertEquals(
                ToolResult.error(
                        ToolErrorType.EDIT_NO_MATCH,
                        "old_string occurs 3 times in c.txt (at lines"
                                + " 1, 3, 5). Include more surrounding lines to make it unique, or set replace_all to change every"
                                + " one."),
                edit("c.txt", "x", "w", null));
    }

    @Test
    void replaceAllChangesEveryOccurrence() throws Exception {
        Path file = file("d.txt", "x\ny\nx\n");

        assertEquals(
                "Edited d.txt: 2 replacements (+2 -2)",
                edit("d.txt", "x", "w", true).display());
        assertEquals("w\ny\nw\n", Files.readString(file));
    }

    @Test
    void emptyOldStringCreatesANewFileOnly() throws Exception {
        assertEquals(
                "Created new/File.txt (+1 -0)",
                edit("new/File.txt", "", "hello\n", null).display());
        assertEquals("hello\n", Files.readString(workspace.resolve("new/File.txt")));

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "new/File.txt already exists; give old_string"
                                + " to change part of it, or use write_file to replace it whole."),
                edit("new/File.txt", "", "again", null));
    }

    @Test
    void keepsCrlfLineEndings() throws Exception {
        Path file = file("win.txt", "a\r\nb\r\nc\r\n");

        edit("win.txt", "a\nb", "a\nB", null);

        assertEquals("a\r\nB\r\nc\r\n", Files.readString(file));
    }

    @Test
    void keepsTheFinalNewlineAsItWas() throws Exception {
        Path withNewline = file("e.txt", "last line\n");
        Path without = file("f.txt", "last line");

        edit("e.txt", "last line\n", "new last", null);
        edit("f.txt", "last line", "new last\n", null);

        assertEquals("new last\n", Files.readString(withNewline));
        assertEquals("new last", Files.readString(without));
    }

    @Test
    void missingFileSaysHowToCreateIt() {
        assertEquals(
                ToolResult.error(
                        ToolErrorType.FILE_NOT_FOUND,
                        "File not found: nope.txt. To create it, call" + " edit with an empty old_string."),
                edit("nope.txt", "a", "b", null));
    }

    @Test
    void refusesPathsOutsideTheWorkspace() {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                edit("../x.txt", "", "x", null).error().get());
    }

    @Test
    void rejectsAnEditThatChangesNothing() {
        assertEquals(
                Optional.of("old_string and new_string are the same; there is nothing to change."),
                tool.validate(new EditTool.Params("a", "same", "same", null)));
    }

    @Test
    void editsThroughASymlinkedFolderThatStaysInside() throws Exception {
        file("real/App.java", "int x = 1;\n");
        Files.createSymbolicLink(workspace.resolve("alias"), workspace.resolve("real"));

        assertEquals(
                "Edited alias/App.java: 1 replacement (+1 -1)",
                edit("alias/App.java", "x = 1", "x = 2", null).display());
        assertEquals("int x = 2;\n", Files.readString(workspace.resolve("real/App.java")));
    }

    @Test
    void refusesToEditThroughASymlinkToAFileOutside() throws Exception {
        Path secret = Files.writeString(outside.resolve("secret.txt"), "the secret\n");
        Files.createSymbolicLink(workspace.resolve("link.txt"), secret);

        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                edit("link.txt", "secret", "public", null).error().get());
        assertEquals("the secret\n", Files.readString(secret));
    }

    @Test
    void aFileThatIsNotUtf8IsRefusedAndLeftByteForByte() throws Exception {
        // Latin-1: é is the single byte E9, which UTF-8 would read as U+FFFD and write back as EF BF BD.
        byte[] latin1 = "greeting=caf\u00e9\nkey=old\n".getBytes(StandardCharsets.ISO_8859_1);
        Path file = workspace.resolve("app.properties");
        Files.write(file, latin1);

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "app.properties is not UTF-8 text (the byte at offset 12 is not; Latin-1 or Windows-1252,"
                                + " perhaps), and edit would rewrite every such byte of the file and corrupt it."
                                + " Nothing was changed. Change it with a command that keeps its encoding (sed, or"
                                + " iconv to convert it), or replace it whole with write_file, which writes UTF-8."),
                edit("app.properties", "key=old", "key=new", null));
        assertArrayEquals(latin1, Files.readAllBytes(file));
        assertEquals(
                Optional.empty(),
                tool.preview(
                        new EditTool.Params("app.properties", "key=old", "key=new", null), Workspace.of(workspace)));
    }

    @Test
    void aBinaryFileIsRefusedAndLeftByteForByte() throws Exception {
        byte[] binary = {'k', 'e', 'y', '=', 'o', 'l', 'd', 0, 1, 2};
        Path file = workspace.resolve("data.bin");
        Files.write(file, binary);

        assertEquals(
                ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        "data.bin is a binary file (10 B); edit only changes text files."),
                edit("data.bin", "key=old", "key=new", null));
        assertArrayEquals(binary, Files.readAllBytes(file));
    }

    @Test
    void aUtf8FileKeepsEveryByteTheEditDidNotChange() throws Exception {
        // A byte-order mark, an emoji and a letter of two bytes, on lines the edit does not touch.
        byte[] before = "\uFEFFsmile=\uD83D\uDE00\ngreeting=caf\u00e9\nkey=old\n".getBytes(StandardCharsets.UTF_8);
        Path file = workspace.resolve("app.properties");
        Files.write(file, before);

        edit("app.properties", "key=old", "key=new", null);

        assertArrayEquals(
                "\uFEFFsmile=\uD83D\uDE00\ngreeting=caf\u00e9\nkey=new\n".getBytes(StandardCharsets.UTF_8),
                Files.readAllBytes(file));
    }
}
