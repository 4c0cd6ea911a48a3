package dev.dockhand.core.tool;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A path the model named, checked by {@link Workspace#open} or {@link Workspace#openForRead} and opened: the folder
 * that holds it is held open, reached from its root one name at a time without following a link
 * ({@link OpenFolder}), and the file is looked at, read, listed or replaced through that folder. A process that swaps
 * a folder on the path, or the file itself, for a symbolic link after the check cannot redirect any of it: the swap
 * is met as a {@link PathChangedException}. Close it when done; not for use by several threads at once.
 */
public final class WorkspaceFile implements Closeable {
    /** What the path names at the moment of asking. */
    public enum Kind {
        /** Nothing by that name, or a folder on the way is missing. */
        MISSING,
        /** A regular file. */
        FILE,
        /** A folder. */
        DIRECTORY,
        /** A pipe, socket or device: opening one could wait forever, so the file tools leave it alone. */
        OTHER
    }

    /** Whether the file may be written: only paths in the writable roots may. */
    enum Access {
        /** Read, list and walk; the read-only roots (saved tool outputs) are allowed too. */
        READ_ONLY,
        /** Also create and replace; only the workspace and the included folders are allowed. */
        READ_WRITE
    }

    /** A path that passed the check: as the model named it, the allowed root it is in, and its real path there. */
    record Target(Path path, Path root, Path real, Access access) {}

    private final Path path;
    private final Access access;
    /** The last name of the real path; null when the path is a root itself, which {@link #folder} then holds. */
    private final String name;

    private OpenFolder folder;
    /** Folders between {@link #folder} and {@link #name} that do not exist (yet); a write creates them. */
    private List<String> missing;

    private WorkspaceFile(Target target, OpenFolder folder, List<String> missing, String name) {
        this.path = target.path();
        this.access = target.access();
        this.folder = folder;
        this.missing = List.copyOf(missing);
        this.name = name;
    }

    static WorkspaceFile open(Target target) throws IOException {
        return open(OpenFolder.open(target.root()), target);
    }

    /** Walks from {@code root}, which this file then owns, down to the folder holding the target's last name. */
    static WorkspaceFile open(OpenFolder root, Target target) throws IOException {
        if (target.real().equals(target.root())) {
            return new WorkspaceFile(target, root, List.of(), null);
        }
        List<String> names = new ArrayList<>();
        target.root().relativize(target.real()).forEach(part -> names.add(part.toString()));
        int last = names.size() - 1;
        OpenFolder folder = root;
        try {
            for (int i = 0; i < last; i++) {
                OpenFolder next;
                try {
                    next = folder.folder(names.get(i));
                } catch (NoSuchFileException | NotDirectoryException absent) {
                    return new WorkspaceFile(target, folder, names.subList(i, last), names.get(last));
                }
                try {
                    folder.close();
                } finally {
                    folder = next;
                }
            }
        } catch (IOException | RuntimeException failure) {
            closeAfter(folder, failure);
            throw failure;
        }
        return new WorkspaceFile(target, folder, List.of(), names.get(last));
    }

    /** The path as the model named it, resolved against the workspace root (as {@link Workspace#resolve} gives it). */
    public Path path() {
        return path;
    }

    /** The file's own attributes now; empty when it does not exist. */
    public Optional<BasicFileAttributes> attributes() throws IOException {
        if (!missing.isEmpty()) {
            return Optional.empty();
        }
        if (name == null) {
            return Optional.of(folder.ownAttributes());
        }
        Optional<BasicFileAttributes> attributes = folder.attributes(name);
        if (attributes.isPresent() && attributes.get().isSymbolicLink()) {
            // The checked real path never ends in a link: one there now was put there since.
            throw PathChangedException.becameLink(folder.path().resolve(name));
        }
        return attributes;
    }

    public Kind kind() throws IOException {
        Optional<BasicFileAttributes> attributes = attributes();
        if (attributes.isEmpty()) {
            return Kind.MISSING;
        }
        if (attributes.get().isDirectory()) {
            return Kind.DIRECTORY;
        }
        return attributes.get().isRegularFile() ? Kind.FILE : Kind.OTHER;
    }

    /** Opens the file for reading; check {@link #kind} first, since a pipe would block the open. */
    public SeekableByteChannel open() throws IOException {
        return folder.read(existingName());
    }

    public byte[] readAllBytes() throws IOException {
        try (InputStream in = Channels.newInputStream(open())) {
            return in.readAllBytes();
        }
    }

    /** Opens the folder the path names, to list it or walk it; its {@link OpenFolder#path} is {@link #path()}. */
    public OpenFolder openFolder() throws IOException {
        if (!missing.isEmpty()) {
            throw new NoSuchFileException(path.toString());
        }
        return name == null ? folder.reopen(path) : folder.folder(name, path);
    }

    /**
     * Creates or replaces the file with {@code content}, atomically (see {@link OpenFolder}), creating missing folders
     * first. Only for a path opened with {@link Workspace#open}.
     */
    public void write(byte[] content) throws IOException {
        if (access != Access.READ_WRITE) {
            throw new IllegalStateException(path + " was opened for reading only");
        }
        if (name == null) {
            throw new FileSystemException(path.toString(), null, "is a folder");
        }
        while (!missing.isEmpty()) {
            String next = missing.get(0);
            folder.createFolder(next);
            OpenFolder created = folder.folder(next);
            try {
                folder.close();
            } finally {
                folder = created;
                missing = missing.subList(1, missing.size());
            }
        }
        folder.replace(name, content);
    }

    @Override
    public void close() throws IOException {
        folder.close();
    }

    private String existingName() throws IOException {
        if (!missing.isEmpty()) {
            throw new NoSuchFileException(path.toString());
        }
        if (name == null) {
            throw new FileSystemException(path.toString(), null, "is a folder");
        }
        return name;
    }

    private static void closeAfter(OpenFolder folder, Exception failure) {
        try {
            folder.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
