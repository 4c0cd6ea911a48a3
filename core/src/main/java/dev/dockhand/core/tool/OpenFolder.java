package dev.dockhand.core.tool;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A folder held open inside the workspace, reached from an allowed root one name at a time without following a
 * symbolic link. What lies below it is opened relative to the open folder, never by a path looked up again, so a
 * folder on the way that is swapped for a link after the path was checked cannot redirect a read or a write: the
 * swap is met as a {@link PathChangedException}. Names given to its methods are single entries of this folder, never
 * paths. Not for use by several threads at once.
 *
 * <p>On Linux this is the JDK's {@link SecureDirectoryStream} ({@code openat} and its relatives); where the JDK has
 * none, {@link PathFolder} does the best it can by path and says what that leaves open.
 */
public abstract sealed class OpenFolder implements Closeable permits SecureFolder, PathFolder {
    private final Path path;
    /** The folder's real path, from which it was reached; only the fallback and folder creation look it up. */
    final Path real;

    OpenFolder(Path path, Path real) {
        this.path = path;
        this.real = real;
    }

    /**
     * Opens {@code real}, a folder whose own path is trusted (an allowed root, resolved when the workspace was made),
     * as the first step of a walk.
     */
    public static OpenFolder open(Path real) throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(real);
        if (stream instanceof SecureDirectoryStream<Path> secure) {
            return new SecureFolder(real, real, secure);
        }
        stream.close();
        return new PathFolder(real, real);
    }

    /** The path callers know this folder by, for messages, ignore rules and results; never used to open anything. */
    public final Path path() {
        return path;
    }

    /** The names of this folder's entries, in no particular order. */
    public abstract List<String> names() throws IOException;

    /** An entry's attributes, a symbolic link's own rather than its target's; empty when there is no such entry. */
    public abstract Optional<BasicFileAttributes> attributes(String name) throws IOException;

    /**
     * Opens a sub-folder of this one.
     *
     * @throws PathChangedException when the entry is a symbolic link
     * @throws NoSuchFileException when there is no such entry
     * @throws NotDirectoryException when the entry is not a folder
     */
    public final OpenFolder folder(String name) throws IOException {
        return folder(name, path.resolve(name));
    }

    /**
     * Opens a file of this folder for reading.
     *
     * @throws PathChangedException when the entry is a symbolic link
     */
    public abstract SeekableByteChannel read(String name) throws IOException;

    /** Opens a sub-folder, known to callers as {@code shown}; see {@link #folder(String)}. */
    abstract OpenFolder folder(String name, Path shown) throws IOException;

    /** This same folder again, as a handle of its own known as {@code shown}. */
    abstract OpenFolder reopen(Path shown) throws IOException;

    /** This folder's own attributes. */
    public abstract BasicFileAttributes ownAttributes() throws IOException;

    /** Creates an empty sub-folder; an existing folder of that name is fine, as with {@code mkdir -p}. */
    public abstract void createFolder(String name) throws IOException;

    /** Creates the folder {@code name}, found at {@code where}, unless a folder of that name is there already. */
    final void createFolderAt(Path where, String name) throws IOException {
        try {
            Files.createDirectory(where);
        } catch (FileAlreadyExistsException e) {
            if (!attributes(name).map(BasicFileAttributes::isDirectory).orElse(false)) {
                throw e;
            }
        }
    }

    /** Creates a new file for writing; fails when the name exists, link or not. */
    public abstract SeekableByteChannel create(String name) throws IOException;

    /** Moves an entry of this folder over another in one step; the target entry itself is replaced, never followed. */
    public abstract void rename(String from, String to) throws IOException;

    /** Removes an entry that is not a folder; a link is removed, never followed. */
    public abstract void delete(String name) throws IOException;

    /** Removes an empty sub-folder; an entry that is a link or a file is refused, not removed. */
    public abstract void deleteFolder(String name) throws IOException;

    /**
     * Creates a symbolic link to {@code target}. The JDK has no {@code symlinkat}, so it is created by path, as a
     * folder is (see {@link SecureFolder#createFolder}); a link that did not land in this folder is refused.
     */
    public abstract void createLink(String name, Path target) throws IOException;

    /** The POSIX permissions view of an entry, not following a link; null where the file system has none. */
    public abstract PosixFileAttributeView posixView(String name) throws IOException;

    /**
     * Replaces a file's content so that a crash at any moment leaves either the old file or the new one, never half of
     * one: the bytes go to a new temporary file in this folder, are forced to disk, and the temporary file is moved
     * over the original in one step, keeping an existing file's permissions. The temporary file is removed when any
     * step fails. When the entry is a symbolic link the replace is refused, though the move would only have replaced
     * the link: the checked real path never ends in a link, so one there means the path changed.
     */
    final void replace(String name, byte[] content) throws IOException {
        Optional<BasicFileAttributes> existing = attributes(name);
        if (existing.isPresent() && existing.get().isSymbolicLink()) {
            throw PathChangedException.becameLink(path.resolve(name));
        }
        String temp = "." + name + ".dockhand-" + UUID.randomUUID() + ".tmp";
        SeekableByteChannel channel = create(temp);
        try {
            try (channel) {
                ByteBuffer bytes = ByteBuffer.wrap(content);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                if (channel instanceof FileChannel file) {
                    file.force(true);
                }
            }
            if (existing.isPresent() && existing.get().isRegularFile()) {
                keepPermissions(name, temp);
            }
            rename(temp, name);
        } catch (IOException | RuntimeException failure) {
            try {
                delete(temp);
            } catch (IOException cleanup) {
                failure.addSuppressed(cleanup);
            }
            throw failure;
        }
    }

    /** An executable script stays executable after an edit. */
    private void keepPermissions(String original, String replacement) throws IOException {
        PosixFileAttributeView from = posixView(original);
        PosixFileAttributeView to = posixView(replacement);
        if (from != null && to != null) {
            to.setPermissions(from.readAttributes().permissions());
        }
    }

    /**
     * What to throw for a failure to open {@code name}: when the entry is a symbolic link (opened without following,
     * which the system refuses), the path changed since it was checked; anything else is the failure itself.
     */
    final IOException linkOr(String name, IOException failure) {
        if (failure instanceof NoSuchFileException) {
            return failure;
        }
        try {
            if (attributes(name).map(BasicFileAttributes::isSymbolicLink).orElse(false)) {
                return PathChangedException.becameLink(path.resolve(name));
            }
        } catch (IOException again) {
            failure.addSuppressed(again);
        }
        return failure;
    }

    /**
     * Checks that a sub-folder about to be opened is one: opening a pipe that took a folder's place would wait for a
     * writer forever, and a link is refused before it is reached.
     */
    final void requireFolder(String name) throws IOException {
        BasicFileAttributes attributes = attributes(name)
                .orElseThrow(() -> new NoSuchFileException(path.resolve(name).toString()));
        if (attributes.isSymbolicLink()) {
            throw PathChangedException.becameLink(path.resolve(name));
        }
        if (!attributes.isDirectory()) {
            throw new NotDirectoryException(path.resolve(name).toString());
        }
    }

    /** Names are single entries: a separator or {@code ..} would make the system look a path up again. */
    static Path entry(String name) {
        Path entry = Path.of(name);
        if (name.isEmpty()
                || entry.isAbsolute()
                || entry.getNameCount() != 1
                || name.equals(".")
                || name.equals("..")
                || !entry.toString().equals(name)) {
            throw new IllegalArgumentException("not a single folder entry: '" + name + "'");
        }
        return entry;
    }
}
