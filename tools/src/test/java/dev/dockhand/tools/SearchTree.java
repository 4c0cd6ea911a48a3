package dev.dockhand.tools;

import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.tool.ToolContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * The tree that list_directory, glob and grep are tested on: .gitignore rules at two depths, .git, .github, a binary,
 * a symlink to a folder outside, and two sources with known times, so that each tool's test reads the same files.
 */
final class SearchTree {
    private SearchTree() {}

    /** Builds the tree in {@code temp/project}, its link's target in {@code temp/outside}; a context on the project. */
    static ToolContext build(Path temp) throws IOException {
        Path workspace = Files.createDirectories(temp.resolve("project")).toRealPath();
        write(workspace, ".gitignore", "build/\n*.log\n");
        write(workspace, "src/main/App.java", "class App {\n  // TODO wire\n}\n");
        write(workspace, "src/main/Util.java", "class Util {\n  static int todo = 1; // TODO later\n}\n");
        write(workspace, "src/test/AppTest.java", "class AppTest {}\n");
        write(workspace, "src/.gitignore", "generated/\n");
        write(workspace, "src/generated/Gen.java", "// TODO generated\n");
        write(workspace, "build/out/App.class", "TODO in build output\n");
        write(workspace, "debug.log", "TODO in a log\n");
        write(workspace, ".git/HEAD", "TODO ref\n");
        write(workspace, ".github/workflow.yml", "# TODO ci\n");
        write(workspace, "README.md", "# Project\n");
        Files.write(workspace.resolve("data.bin"), new byte[] {'T', 'O', 'D', 'O', 0, 1});
        Files.createDirectories(temp.resolve("outside"));
        Files.writeString(temp.resolve("outside/secret.java"), "TODO secret\n");
        Files.createSymbolicLink(workspace.resolve("link"), temp.resolve("outside"));
        Files.setLastModifiedTime(
                workspace.resolve("src/main/Util.java"), FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));
        Files.setLastModifiedTime(
                workspace.resolve("src/main/App.java"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        return TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
    }

    private static void write(Path workspace, String path, String content) throws IOException {
        Path file = workspace.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}
