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
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * git's ignore rules deep in a tree, as grep (both searches) and glob apply them: a rule without a slash ignores at
 * every depth, a leading slash anchors a rule to its file's folder, and a nearer .gitignore overrides one above it.
 */
class IgnoredAtDepthTest {
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
        write(".gitignore", "resources/\n/generated/\n*.tmp\n");
        write("a/b/c/resources/R.java", "needle\n");
        write("a/b/c/Keep.java", "needle\n");
        write("a/generated/G.java", "needle\n");
        write("generated/G.java", "needle\n");
        write("a/b/.gitignore", "!keep.tmp\n");
        write("a/b/keep.tmp", "needle\n");
        write("a/x.tmp", "needle\n");
        context = TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
    }

    private static final String FOUND = "3 matches in 3 files:\n"
            + "a/b/c/Keep.java:1:needle\n"
            + "a/b/keep.tmp:1:needle\n"
            + "a/generated/G.java:1:needle\n";

    @Test
    void theJavaSearchSkipsWhatTheRulesIgnoreAtAnyDepth() throws Exception {
        assertEquals(
                ToolResult.success(FOUND, "3 matches in 3 files"),
                GrepTool.withoutRipgrep().execute(new GrepTool.Params("needle", null, null, null, null), context));
    }

    @Test
    void ripgrepSkipsTheSameFiles() throws Exception {
        Optional<Ripgrep> ripgrep = Ripgrep.find();
        assumeTrue(ripgrep.isPresent(), "ripgrep (rg) is not installed; the Java search alone was tested");

        assertEquals(
                ToolResult.success(FOUND, "3 matches in 3 files"),
                new GrepTool(ripgrep).execute(new GrepTool.Params("needle", null, null, null, null), context));
    }

    @Test
    void globSkipsTheSameFiles() throws Exception {
        assertEquals(
                ToolResult.success("a/b/c/Keep.java\na/b/keep.tmp\na/generated/G.java\n", "3 files"),
                new GlobTool().execute(new GlobTool.Params("**/*.{java,tmp}", null), context));
    }

    @Test
    void aSearchStartingBelowTheRootObeysTheRulesAboveIt() throws Exception {
        assertEquals(
                "2 matches in 2 files:\na/b/c/Keep.java:1:needle\na/b/keep.tmp:1:needle\n",
                GrepTool.withoutRipgrep()
                        .execute(new GrepTool.Params("needle", "a/b", null, null, null), context)
                        .llmContent());
    }
}
