package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** glob over the {@link SearchTree}: newest first, ignored files skipped (ripgrep's list: GlobRipgrepTest). */
class GlobToolTest {
    @TempDir
    Path temp;

    private ToolContext context;

    @BeforeEach
    void tree() throws Exception {
        context = SearchTree.build(temp);
    }

    @Test
    void matchesAtAnyDepthNewestFirstSkippingIgnoredFiles() throws Exception {
        ToolResult result = new GlobTool().execute(new GlobTool.Params("**/*.java", null), context);

        List<String> lines = result.llmContent().lines().toList();
        assertEquals("src/main/Util.java", lines.get(0));
        assertEquals("src/main/App.java", lines.get(lines.size() - 1));
        assertEquals(
                List.of("src/main/App.java", "src/main/Util.java", "src/test/AppTest.java"),
                lines.stream().sorted().toList());
    }

    @Test
    void searchesASubFolderAndSaysWhenNothingMatches() throws Exception {
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
    void rejectsAnInvalidPattern() {
        assertTrue(new GlobTool().validate(new GlobTool.Params("src/[a", null)).isPresent());
    }

    @Test
    void refusesAFolderOutsideTheWorkspace() throws Exception {
        assertEquals(
                ToolErrorType.PATH_OUTSIDE_WORKSPACE,
                new GlobTool()
                        .execute(new GlobTool.Params("*", "../outside"), context)
                        .error()
                        .get());
    }
}
