package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceTest {
    @TempDir
    Path temp;

    private Path root() throws Exception {
        return Files.createDirectories(temp.resolve("project"));
    }

    @Test
    void resolvesRelativeAndAbsolutePathsInside() throws Exception {
        Path root = root().toRealPath();
        Workspace workspace = Workspace.of(root);

        assertEquals(root.resolve("src/Main.java"), workspace.resolve("src/Main.java"));
        assertEquals(
                root.resolve("a.txt"), workspace.resolve(root.resolve("a.txt").toString()));
        assertEquals(root.resolve("a.txt"), workspace.resolve("src/../a.txt"));
        assertEquals(root, workspace.resolve(""));
    }

    @Test
    void refusesDotDotOut() throws Exception {
        Workspace workspace = Workspace.of(root());

        PathOutsideWorkspaceException refused =
                assertThrows(PathOutsideWorkspaceException.class, () -> workspace.resolve("../secret.txt"));
        assertEquals(
                "'../secret.txt' is outside the workspace " + workspace.root() + "; only paths inside it can be used.",
                refused.getMessage());
    }

    @Test
    void refusesAbsolutePathOutside() throws Exception {
        Workspace workspace = Workspace.of(root());

        assertThrows(PathOutsideWorkspaceException.class, () -> workspace.resolve("/etc/passwd"));
    }

    @Test
    void refusesPathThroughSymlinkOutsideWorkspace() throws Exception {
        Path root = root();
        Files.createDirectories(temp.resolve("outside"));
        Files.createSymbolicLink(root.resolve("link"), temp.resolve("outside"));
        Workspace workspace = Workspace.of(root);

        PathOutsideWorkspaceException refused =
                assertThrows(PathOutsideWorkspaceException.class, () -> workspace.resolve("link/new.txt"));
        assertTrue(refused.getMessage().contains("goes through the symlink link"), refused.getMessage());
    }

    @Test
    void openChecksThePathBeforeOpeningAnything() throws Exception {
        Path root = root();
        Files.createDirectories(temp.resolve("outside"));
        Files.writeString(temp.resolve("outside/secret.txt"), "the secret\n");
        Files.createSymbolicLink(root.resolve("link"), temp.resolve("outside"));
        Workspace workspace = Workspace.of(root);

        PathOutsideWorkspaceException refused =
                assertThrows(PathOutsideWorkspaceException.class, () -> workspace.openForRead("link/secret.txt"));
        assertTrue(refused.getMessage().contains("goes through the symlink link"), refused.getMessage());
        assertThrows(PathOutsideWorkspaceException.class, () -> workspace.open("../outside/new.txt"));
        assertFalse(Files.exists(temp.resolve("outside/new.txt")));
    }

    @Test
    void openForReadReachesTheReadOnlyFoldersButOpenDoesNot() throws Exception {
        Path saved = temp.resolve("saved").toAbsolutePath();
        Workspace workspace = new Workspace(root(), List.of(), List.of(saved));
        Files.writeString(saved.resolve("call.txt"), "output\n");

        try (WorkspaceFile file =
                workspace.openForRead(saved.resolve("call.txt").toString())) {
            assertEquals("output\n", new String(file.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertThrows(
                PathOutsideWorkspaceException.class,
                () -> workspace.open(saved.resolve("call.txt").toString()));
    }

    @Test
    void refusesDanglingSymlinkSinceWritingThroughItWouldCreateItsTarget() throws Exception {
        Path root = root();
        Files.createSymbolicLink(root.resolve("dangling"), temp.resolve("outside-not-yet.txt"));
        Workspace workspace = Workspace.of(root);

        assertThrows(PathOutsideWorkspaceException.class, () -> workspace.resolve("dangling"));
    }

    @Test
    void followsSymlinksThatStayInside() throws Exception {
        Path root = root();
        Files.createDirectories(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));

        assertEquals(root.toRealPath().resolve("alias/x"), Workspace.of(root).resolve("alias/x"));
    }

    @Test
    void acceptsPathsInIncludedDirectories() throws Exception {
        Path extra = Files.createDirectories(temp.resolve("shared")).toRealPath();
        Workspace workspace = new Workspace(root(), List.of(extra));

        assertEquals(
                extra.resolve("lib.txt"),
                workspace.resolve(extra.resolve("lib.txt").toString()));
    }
}
