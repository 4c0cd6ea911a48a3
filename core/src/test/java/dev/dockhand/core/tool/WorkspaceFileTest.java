package dev.dockhand.core.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The open after the check, with the race a background process could run made deterministic: the test swaps a folder
 * or the file for a symlink to a folder outside between the check and the use, and nothing outside is read or
 * written. Each test runs with both ways of opening a folder, so the fallback keeps the same promises here.
 */
class WorkspaceFileTest {
    private static final String SECRET = "the secret\n";

    @TempDir
    Path temp;

    private Path root;
    private Path outside;
    private Workspace workspace;

    /** How the walk opens its root: the JDK's secure directory stream (on Linux), or the fallback by path. */
    enum Opening {
        SECURE {
            @Override
            OpenFolder root(Path real) throws IOException {
                return OpenFolder.open(real);
            }
        },
        BY_PATH {
            @Override
            OpenFolder root(Path real) {
                return new PathFolder(real, real);
            }
        };

        abstract OpenFolder root(Path real) throws IOException;
    }

    @BeforeEach
    void tree() throws Exception {
        root = Files.createDirectories(temp.resolve("project")).toRealPath();
        outside = Files.createDirectories(temp.resolve("outside")).toRealPath();
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/notes.txt"), "inside\n");
        Files.writeString(outside.resolve("notes.txt"), SECRET);
        workspace = Workspace.of(root);
    }

    private static WorkspaceFile open(Opening opening, WorkspaceFile.Target target) throws IOException {
        return WorkspaceFile.open(opening.root(target.root()), target);
    }

    /** What a command running in the background does: moves a folder away and puts a link outside in its place. */
    private void swapFolderForLinkOutside(String folder) throws IOException {
        Files.move(root.resolve(folder), root.resolve(folder + "-moved"));
        Files.createSymbolicLink(root.resolve(folder), outside);
    }

    private void swapFileForLinkOutside(String file) throws IOException {
        Files.delete(root.resolve(file));
        Files.createSymbolicLink(root.resolve(file), outside.resolve("notes.txt"));
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
        }
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void refusesToReadThroughAFolderSwappedForALinkAfterTheCheck(Opening opening) throws Exception {
        WorkspaceFile.Target target = workspace.target("sub/notes.txt", WorkspaceFile.Access.READ_ONLY);
        swapFolderForLinkOutside("sub");

        PathChangedException refused = assertThrows(PathChangedException.class, () -> open(opening, target));
        assertEquals(
                root.resolve("sub") + ": is a symbolic link now, though it was not when the path was checked; the file"
                        + " tools do not follow it, so nothing was read or written through it",
                refused.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void refusesToReadAFileSwappedForALinkAfterTheCheck(Opening opening) throws Exception {
        try (WorkspaceFile file = open(opening, workspace.target("sub/notes.txt", WorkspaceFile.Access.READ_ONLY))) {
            swapFileForLinkOutside("sub/notes.txt");

            assertThrows(PathChangedException.class, file::kind);
            assertThrows(PathChangedException.class, file::readAllBytes);
        }
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void aFolderSwappedAfterTheOpenIsNeverFollowed(Opening opening) throws Exception {
        try (WorkspaceFile file = open(opening, workspace.target("sub/notes.txt", WorkspaceFile.Access.READ_ONLY))) {
            swapFolderForLinkOutside("sub");

            switch (opening) {
                case SECURE -> {
                    // The folder held open is the one checked, now at sub-moved, still inside.
                    assertEquals("inside\n", new String(file.readAllBytes(), StandardCharsets.UTF_8));
                }
                case BY_PATH -> {
                    // The fallback looks the path up again and finds that it leads elsewhere.
                    assertThrows(PathChangedException.class, file::readAllBytes);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void refusesToWriteThroughAFolderSwappedForALinkAfterTheCheck(Opening opening) throws Exception {
        WorkspaceFile.Target target = workspace.target("sub/new.txt", WorkspaceFile.Access.READ_WRITE);
        swapFolderForLinkOutside("sub");

        assertThrows(PathChangedException.class, () -> open(opening, target));
        assertEquals(List.of("notes.txt"), names(outside));
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void refusesToCreateFoldersUnderAFolderSwappedAfterTheOpen(Opening opening) throws Exception {
        try (WorkspaceFile file =
                open(opening, workspace.target("sub/new/deeper.txt", WorkspaceFile.Access.READ_WRITE))) {
            swapFolderForLinkOutside("sub");

            assertThrows(PathChangedException.class, () -> file.write(bytes("x")));
        }
        assertEquals(List.of("notes.txt"), names(outside));
        assertEquals(List.of("notes.txt"), names(root.resolve("sub-moved")));
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void refusesToReplaceAFileSwappedForALinkAfterTheCheck(Opening opening) throws Exception {
        try (WorkspaceFile file = open(opening, workspace.target("sub/notes.txt", WorkspaceFile.Access.READ_WRITE))) {
            swapFileForLinkOutside("sub/notes.txt");

            assertThrows(PathChangedException.class, () -> file.write(bytes("overwritten\n")));
        }
        assertEquals(SECRET, Files.readString(outside.resolve("notes.txt")));
        assertEquals(List.of("notes.txt"), names(root.resolve("sub")));
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void readsAndWritesThroughAFolderLinkThatStaysInside(Opening opening) throws Exception {
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("sub"));

        try (WorkspaceFile file = open(opening, workspace.target("alias/new.txt", WorkspaceFile.Access.READ_WRITE))) {
            file.write(bytes("through the alias\n"));
        }
        try (WorkspaceFile file = open(opening, workspace.target("alias/new.txt", WorkspaceFile.Access.READ_ONLY))) {
            assertEquals(root.resolve("alias/new.txt"), file.path());
            assertEquals("through the alias\n", new String(file.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertEquals("through the alias\n", Files.readString(root.resolve("sub/new.txt")));
        assertTrue(Files.isSymbolicLink(root.resolve("alias")));
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void createsMissingFoldersAndLeavesOnlyTheFile(Opening opening) throws Exception {
        try (WorkspaceFile file = open(opening, workspace.target("a/b/c.txt", WorkspaceFile.Access.READ_WRITE))) {
            assertEquals(WorkspaceFile.Kind.MISSING, file.kind());
            file.write(bytes("c\n"));
            assertEquals(WorkspaceFile.Kind.FILE, file.kind());
        }
        assertEquals("c\n", Files.readString(root.resolve("a/b/c.txt")));
        assertEquals(List.of("c.txt"), names(root.resolve("a/b")));
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void leavesNoTemporaryFileWhenTheReplaceFails(Opening opening) throws Exception {
        Files.writeString(Files.createDirectories(root.resolve("sub/folder")).resolve("kept.txt"), "kept\n");

        try (WorkspaceFile file = open(opening, workspace.target("sub/folder", WorkspaceFile.Access.READ_WRITE))) {
            // The move of the new file over a folder fails after the temporary file was written.
            assertThrows(IOException.class, () -> file.write(bytes("x")));
        }
        assertEquals(List.of("folder", "notes.txt"), names(root.resolve("sub")));
        assertEquals(List.of("kept.txt"), names(root.resolve("sub/folder")));
    }

    @Test
    void aPathOpenedForReadingCannotBeWritten() throws Exception {
        try (WorkspaceFile file = workspace.openForRead("sub/notes.txt")) {
            assertThrows(IllegalStateException.class, () -> file.write(bytes("x")));
        }
    }

    @Test
    void namesAreSingleEntriesNeverPaths() throws Exception {
        try (OpenFolder folder = OpenFolder.open(root)) {
            for (String name : List.of("sub/notes.txt", "..", ".", "", "/etc")) {
                assertThrows(IllegalArgumentException.class, () -> folder.read(name), name);
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
