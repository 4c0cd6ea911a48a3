package dev.dockhand.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreesTest {
    @TempDir
    Path temp;

    @Test
    void aTreeIsRemovedWithTheLinksInItButNotWhatTheyPointTo() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("precious"), "keep\n");
        Path tree = Files.createDirectories(temp.resolve("tree/deep"));
        Files.writeString(tree.resolve("file"), "x\n");
        Files.createSymbolicLink(tree.resolve("link"), outside);

        FileTrees.deleteTree(temp.resolve("tree"));

        assertEquals(false, Files.exists(temp.resolve("tree"), LinkOption.NOFOLLOW_LINKS));
        assertEquals("keep\n", Files.readString(outside.resolve("precious")));
    }

    @Test
    void foldersHoldingAFileOrALinkAreNotRemovedAsEmptyOnesAndTheFileStays() throws Exception {
        Files.createDirectories(temp.resolve("tree/a"));
        Files.createDirectories(temp.resolve("tree/b/c"));
        Files.createSymbolicLink(temp.resolve("tree/b/c/link"), temp.resolve("nowhere"));

        assertEquals(List.of(Path.of("b/c/link")), FileTrees.files(temp.resolve("tree"), 4));
        assertThrows(DirectoryNotEmptyException.class, () -> FileTrees.deleteEmptyFolders(temp.resolve("tree")));
        assertEquals(true, Files.isSymbolicLink(temp.resolve("tree/b/c/link")));

        Files.delete(temp.resolve("tree/b/c/link"));
        assertEquals(List.of(), FileTrees.files(temp.resolve("tree"), 4));
        FileTrees.deleteEmptyFolders(temp.resolve("tree"));
        assertEquals(false, Files.exists(temp.resolve("tree")));
    }
}
