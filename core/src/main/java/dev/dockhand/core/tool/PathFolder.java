package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fallback {@link OpenFolder} where the JDK offers no {@link java.nio.file.SecureDirectoryStream} (it has one on
 * Linux; not on Windows, nor on every other system): each entry is reached by path under the folder's real path. Before
 * every use the folder's path is checked to still be its real path (no folder above became a link), a link found as
 * an entry is refused, and files are opened with {@code NOFOLLOW_LINKS} so the last name is never followed. What this
 * cannot close is the instant between that check and the system looking the path up again, in which a folder above
 * could be swapped for a link: without {@code openat} the JDK offers nothing narrower.
 */
final class PathFolder extends OpenFolder {
    PathFolder(Path path, Path real) {
        super(path, real);
    }

    @Override
    public List<String> names() throws IOException {
        requireUnchanged();
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(real)) {
            for (Path entry : listing) {
                names.add(entry.getFileName().toString());
            }
        }
        return names;
    }

    @Override
    public Optional<BasicFileAttributes> attributes(String name) throws IOException {
        requireUnchanged();
        try {
            return Optional.of(Files.readAttributes(
                    real.resolve(entry(name)), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public SeekableByteChannel read(String name) throws IOException {
        requireUnchanged();
        try {
            return Files.newByteChannel(real.resolve(entry(name)), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw linkOr(name, e);
        }
    }

    @Override
    OpenFolder folder(String name, Path shown) throws IOException {
        requireUnchanged();
        requireFolder(name);
        return new PathFolder(shown, real.resolve(entry(name)));
    }

    @Override
    OpenFolder reopen(Path shown) {
        return new PathFolder(shown, real);
    }

    @Override
    public BasicFileAttributes ownAttributes() throws IOException {
        return Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public void createFolder(String name) throws IOException {
        requireUnchanged();
        createFolderAt(real.resolve(entry(name)), name);
    }

    @Override
    public SeekableByteChannel create(String name) throws IOException {
        requireUnchanged();
        return Files.newByteChannel(
                real.resolve(entry(name)),
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        requireUnchanged();
        Path source = real.resolve(entry(from));
        Path target = real.resolve(entry(to));
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public void delete(String name) throws IOException {
        requireUnchanged();
        Files.delete(real.resolve(entry(name)));
    }

    @Override
    public void deleteFolder(String name) throws IOException {
        requireUnchanged();
        requireFolder(name);
        Files.delete(real.resolve(entry(name)));
    }

    @Override
    public void createLink(String name, Path target) throws IOException {
        requireUnchanged();
        Files.createSymbolicLink(real.resolve(entry(name)), target);
    }

    @Override
    public PosixFileAttributeView posixView(String name) {
        return Files.getFileAttributeView(
                real.resolve(entry(name)), PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    }

    /** Nothing is held open: each use looks the path up again. */
    @Override
    public void close() {}

    private void requireUnchanged() throws IOException {
        if (!real.toRealPath().equals(real)) {
            throw new PathChangedException(
                    path(), "leads somewhere else now (a folder on it became a symbolic link); it was not followed");
        }
    }
}
