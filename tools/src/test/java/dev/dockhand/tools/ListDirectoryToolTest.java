package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** list_directory over the {@link SearchTree}: folders first, sizes, ignored entries counted but not shown. */
class ListDirectoryToolTest {
    @TempDir
    Path temp;

    private ToolContext context;

    @BeforeEach
    void tree() throws Exception {
        context = SearchTree.build(temp);
    }

    @Test
    void showsFoldersFirstWithSizesAndHidesIgnoredEntries() {
        ToolResult result = new ListDirectoryTool().execute(new ListDirectoryTool.Params(null, null), context);

        assertEquals(
                ToolResult.success(
                        ".: 2 folders, 4 files (3 ignored entries not shown)\n"
                                + ".github/\nsrc/\n.gitignore  13 B\nREADME.md  10 B\ndata.bin  6 B\nlink -> symlink\n",
                        "2 folders, 4 files"),
                result);
    }

    @Test
    void takesIgnoreGlobsAndSubFolders() {
        ToolResult result =
                new ListDirectoryTool().execute(new ListDirectoryTool.Params("src", List.of("test")), context);

        assertEquals(
                "src: 1 folder, 1 file (2 ignored entries not shown)\nmain/\n.gitignore  11 B\n", result.llmContent());
    }

    @Test
    void reportsAMissingFolder() {
        assertEquals(
                ToolResult.error(ToolErrorType.FILE_NOT_FOUND, "Folder not found: nope."),
                new ListDirectoryTool().execute(new ListDirectoryTool.Params("nope", null), context));
    }

    @Test
    void refusesAFolderOutsideTheWorkspace() {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                new ListDirectoryTool()
                        .execute(new ListDirectoryTool.Params("/etc", null), context)
                        .error()
                        .get());
    }
}
