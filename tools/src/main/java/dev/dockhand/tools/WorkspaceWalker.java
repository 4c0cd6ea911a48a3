package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

/**
 * Walks a folder the way a developer would search it: depth first with names in sorted order (so results are the
 * same on every machine, and the same as {@code rg --sort path}), symlinks not followed (a link out of the workspace
 * stays closed), ignored paths ({@link IgnoreRules}) skipped, and stopped by a cancel.
 */
final class WorkspaceWalker {
    private final IgnoreRules rules;
    private final Cancellation cancel;

    WorkspaceWalker(IgnoreRules rules, Cancellation cancel) {
        this.rules = rules;
        this.cancel = cancel;
    }

    /** Receives each regular file not ignored; returns false to stop the walk. */
    @FunctionalInterface
    interface FileVisitor {
        boolean visit(Path file, BasicFileAttributes attributes) throws IOException;
    }

    /** Walks {@code start}, a folder or a single file. */
    void walk(Path start, FileVisitor visitor) throws IOException {
        if (Files.isRegularFile(start)) {
            visitor.visit(start, Files.readAttributes(start, BasicFileAttributes.class));
            return;
        }
        rules.loadDownTo(start);
        walkFolder(start, visitor);
    }

    private boolean walkFolder(Path folder, FileVisitor visitor) throws IOException {
        rules.load(folder);
        List<Path> entries;
        try (Stream<Path> listing = Files.list(folder)) {
            entries = listing.sorted().toList();
        } catch (IOException unreadable) {
            // An unreadable folder is passed over, as grep -s does.
            return true;
        }
        for (Path entry : entries) {
            if (cancel.isCancelled()) {
                return false;
            }
            BasicFileAttributes attributes =
                    Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isDirectory()) {
                if (!rules.isIgnored(entry, true) && !walkFolder(entry, visitor)) {
                    return false;
                }
            } else if (attributes.isRegularFile()
                    && !rules.isIgnored(entry, false)
                    && !visitor.visit(entry, attributes)) {
                return false;
            }
        }
        return true;
    }
}
