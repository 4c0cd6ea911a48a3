package dev.dockhand.core;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Removing a tree of files by path: a link met in it is removed, not entered. Only for a tree nothing else writes while
 * it runs: each entry is reached by its full path, looked up again at every step, so a folder swapped for a link
 * between two steps (by a command still running in the background, say) leads the walk through the link, out of the
 * tree. Where a command may still write, work relative to folders held open ({@code OpenFolder}), or in the sandbox.
 */
public final class FileTrees {
    private FileTrees() {}

    /** Removes {@code path} and everything under it; a file or link is simply removed. */
    public static void deleteTree(Path path) throws IOException {
        delete(path, true);
    }

    /**
     * Removes {@code folder} when it holds nothing but folders, those folders included; a file or link anywhere under it
     * (one that appeared since the caller looked, say) stops it with a {@link DirectoryNotEmptyException} and is never
     * removed.
     */
    public static void deleteEmptyFolders(Path folder) throws IOException {
        delete(folder, false);
    }

    /**
     * Up to {@code limit} of the files and links under {@code folder}, relative to it, in the order the walk meets them;
     * empty when it holds only folders.
     */
    public static List<Path> files(Path folder, int limit) throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(folder, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                found.add(folder.relativize(file));
                return found.size() < limit ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
            }
        });
        return found;
    }

    private static void delete(Path root, boolean files) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (files) {
                    Files.delete(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path folder, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(folder);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
