package dev.dockhand.tools;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;

/**
 * Walks a folder the way a developer would search it: depth first with names in sorted order (so results are the
 * same on every machine, and the same as {@code rg --sort path}), symlinks not followed (a link out of the workspace
 * stays closed), ignored paths ({@link IgnoreRules}) skipped, and stopped by a cancel. Each folder is opened through
 * the one above it, held open ({@link OpenFolder}), and each file is opened through its folder, so a folder swapped
 * for a link while the walk runs is not followed either: it is passed over like any link.
 */
final class WorkspaceWalker {
    private final IgnoreRules rules;
    private final Cancellation cancel;

    WorkspaceWalker(IgnoreRules rules, Cancellation cancel) {
        this.rules = rules;
        this.cancel = cancel;
    }

    /** Opens a file the walk reached, through the folder that holds it. */
    @FunctionalInterface
    interface Content {
        SeekableByteChannel open() throws IOException;
    }

    /** Receives each regular file not ignored; returns false to stop the walk. */
    @FunctionalInterface
    interface FileVisitor {
        boolean visit(Path file, BasicFileAttributes attributes, Content content) throws IOException;
    }

    /** Walks {@code start}, a folder or a single file. */
    void walk(WorkspaceFile start, FileVisitor visitor) throws IOException {
        Optional<BasicFileAttributes> attributes = start.attributes();
        if (attributes.isEmpty()) {
            return;
        }
        if (attributes.get().isRegularFile()) {
            visitor.visit(start.path(), attributes.get(), start::open);
            return;
        }
        if (attributes.get().isDirectory()) {
            rules.startAt(start.path());
            try (OpenFolder folder = start.openFolder()) {
                walkFolder(folder, visitor);
            }
        }
    }

    private boolean walkFolder(OpenFolder folder, FileVisitor visitor) throws IOException {
        rules.load(folder);
        List<Path> entries;
        try {
            entries =
                    folder.names().stream().map(folder.path()::resolve).sorted().toList();
        } catch (IOException unreadable) {
            // An unreadable folder is passed over, as grep -s does.
            return true;
        }
        for (Path entry : entries) {
            if (cancel.isCancelled()) {
                return false;
            }
            String name = entry.getFileName().toString();
            Optional<BasicFileAttributes> attributes = folder.attributes(name);
            if (attributes.isEmpty()) {
                // Removed since the folder was listed.
                continue;
            }
            if (attributes.get().isDirectory()) {
                if (!rules.isIgnored(entry, true) && !walkSubFolder(folder, name, visitor)) {
                    return false;
                }
            } else if (attributes.get().isRegularFile()
                    && !rules.isIgnored(entry, false)
                    && !visitor.visit(entry, attributes.get(), () -> folder.read(name))) {
                return false;
            }
        }
        return true;
    }

    private boolean walkSubFolder(OpenFolder parent, String name, FileVisitor visitor) throws IOException {
        OpenFolder folder;
        try {
            folder = parent.folder(name);
        } catch (IOException unreadable) {
            // Passed over like an unreadable folder; so is one that became a link since it was looked at.
            return true;
        }
        try (folder) {
            return walkFolder(folder, visitor);
        }
    }
}
