package dev.dockhand.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk holds each folder open and opens what is below it through it, so a folder a command swaps for a symlink
 * while the walk runs (done here by the visitor, at a known moment) is never followed.
 */
class WorkspaceWalkerTest {
    @TempDir
    Path temp;

    private Path root;
    private Path outside;
    private Workspace workspace;

    @BeforeEach
    void tree() throws Exception {
        root = Files.createDirectories(temp.resolve("project")).toRealPath();
        outside = Files.createDirectories(temp.resolve("outside")).toRealPath();
        Files.writeString(root.resolve("a.txt"), "a\n");
        Files.createDirectories(root.resolve("b"));
        Files.writeString(root.resolve("b/x.txt"), "inside\n");
        Files.writeString(outside.resolve("x.txt"), "the secret\n");
        workspace = Workspace.of(root);
    }

    private void swapFolderForLinkOutside(String folder) throws IOException {
        Files.move(root.resolve(folder), root.resolve(folder + "-moved"));
        Files.createSymbolicLink(root.resolve(folder), outside);
    }

    private void walk(WorkspaceWalker.FileVisitor visitor) throws Exception {
        try (WorkspaceFile start = workspace.openForRead(".")) {
            new WorkspaceWalker(new IgnoreRules(workspace, List.of()), new Cancellation()).walk(start, visitor);
        }
    }

    private static String read(WorkspaceWalker.Content content) throws IOException {
        try (InputStream in = Channels.newInputStream(content.open())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aFolderSwappedForALinkBeforeTheWalkReachesItIsPassedOver() throws Exception {
        List<String> visited = new ArrayList<>();

        walk((file, attributes, content) -> {
            visited.add(workspace.display(file));
            if (file.endsWith("a.txt")) {
                swapFolderForLinkOutside("b");
            }
            return true;
        });

        assertEquals(List.of("a.txt"), visited);
    }

    @Test
    void aFileIsReadThroughTheFolderHeldOpenAfterThatFolderIsSwappedForALink() throws Exception {
        Map<String, String> read = new LinkedHashMap<>();

        walk((file, attributes, content) -> {
            if (file.endsWith("x.txt")) {
                swapFolderForLinkOutside("b");
            }
            read.put(workspace.display(file), read(content));
            return true;
        });

        assertEquals(Map.of("a.txt", "a\n", "b/x.txt", "inside\n"), read);
    }
}
