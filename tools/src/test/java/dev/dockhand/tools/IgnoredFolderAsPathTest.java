package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder the model names as a tool's {@code path} is searched even when a {@code .gitignore} ignores it (or a folder
 * above it), as ripgrep searches a path it is given: list_directory, grep and glob, with and without ripgrep, show its
 * contents, and the rules still apply to what lies below it (here a nested {@code node_modules} and a {@code *.log}).
 * The tree is hand-written.
 */
class IgnoredFolderAsPathTest {
    @TempDir
    Path temp;

    private Path workspace;
    private ToolContext context;

    private void write(String path, String content) throws Exception {
        Path file = workspace.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2025-01-01T00:00:00Z")));
    }

    @BeforeEach
    void tree() throws Exception {
        workspace = Files.createDirectories(temp.resolve("project")).toRealPath();
        write(".gitignore", "node_modules/\n*.log\n");
        write("node_modules/pkg/index.js", "needle\n");
        write("node_modules/pkg/lib/util.js", "needle\n");
        write("node_modules/pkg/debug.log", "needle\n");
        write("node_modules/pkg/node_modules/dep/dep.js", "needle\n");
        write("src/app.js", "needle\n");
        context = TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
    }

    private static final String GREP_FOUND =
            "2 matches in 2 files:\nnode_modules/pkg/index.js:1:needle\nnode_modules/pkg/lib/util.js:1:needle\n";

    private static final String GLOB_FOUND = "node_modules/pkg/index.js\nnode_modules/pkg/lib/util.js\n";

    @Test
    void listDirectoryShowsAnIgnoredFolderItIsAskedFor() throws Exception {
        assertEquals(
                List.of(
                        "node_modules/pkg: 1 folder, 1 file (2 ignored entries not shown)\nlib/\nindex.js  7 B\n",
                        "node_modules: 1 folder, 0 files\npkg/\n"),
                List.of(
                        new ListDirectoryTool()
                                .execute(new ListDirectoryTool.Params("node_modules/pkg", null), context)
                                .llmContent(),
                        new ListDirectoryTool()
                                .execute(new ListDirectoryTool.Params("node_modules", null), context)
                                .llmContent()));
    }

    @Test
    void theJavaSearchSearchesAnIgnoredFolderItIsAskedFor() throws Exception {
        assertEquals(
                ToolResult.success(GREP_FOUND, "2 matches in 2 files"),
                GrepTool.withoutRipgrep()
                        .execute(new GrepTool.Params("needle", "node_modules/pkg", null, null, null), context));
    }

    @Test
    void ripgrepSearchesTheSameFiles() throws Exception {
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        assumeTrue(ripgrep.isPresent(), "ripgrep (rg) is not installed; the Java search alone was tested");

        assertEquals(
                ToolResult.success(GREP_FOUND, "2 matches in 2 files"),
                new GrepTool(ripgrep)
                        .execute(new GrepTool.Params("needle", "node_modules/pkg", null, null, null), context));
    }

    @Test
    void theJavaGlobListsAnIgnoredFolderItIsAskedFor() throws Exception {
        assertEquals(
                ToolResult.success(GLOB_FOUND, "2 files"),
                GlobTool.withoutRipgrep().execute(new GlobTool.Params("**/*", "node_modules/pkg"), context));
    }

    @Test
    void globThroughRipgrepListsTheSameFiles() throws Exception {
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        assumeTrue(ripgrep.isPresent(), "ripgrep (rg) is not installed; the Java walk alone was tested");

        assertEquals(
                ToolResult.success(GLOB_FOUND, "2 files"),
                new GlobTool(ripgrep).execute(new GlobTool.Params("**/*", "node_modules/pkg"), context));
    }
}
