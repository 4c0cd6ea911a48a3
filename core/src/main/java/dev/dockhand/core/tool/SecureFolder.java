package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An {@link OpenFolder} on the JDK's {@link SecureDirectoryStream}: every entry is opened, looked at, created, moved
 * and deleted relative to the open folder ({@code openat}, {@code fstatat}, {@code renameat}, {@code unlinkat}), with
 * {@code O_NOFOLLOW}, so no path is looked up again after the check.
 */
final class SecureFolder extends OpenFolder {
    private static final Path SELF = Path.of(".");
    private final SecureDirectoryStream<Path> stream;

    SecureFolder(Path path, Path real, SecureDirectoryStream<Path> stream) {
        super(path, real);
        this.stream = stream;
    }

    @Override
    public List<String> names() throws IOException {
        // A directory stream's entries can be iterated once; a fresh handle on "." leaves this one usable.
        List<String> names = new ArrayList<>();
        try (SecureDirectoryStream<Path> listing = stream.newDirectoryStream(SELF, LinkOption.NOFOLLOW_LINKS)) {
            for (Path entry : listing) {
                names.add(entry.getFileName().toString());
            }
        }
        return names;
    }

    @Override
    public Optional<BasicFileAttributes> attributes(String name) throws IOException {
        try {
            return Optional.of(
                    stream.getFileAttributeView(entry(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                            .readAttributes());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public SeekableByteChannel read(String name) throws IOException {
        try {
            return stream.newByteChannel(entry(name), Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            throw linkOr(name, e);
        }
    }

    @Override
    OpenFolder folder(String name, Path shown) throws IOException {
        requireFolder(name);
        try {
            return new SecureFolder(
                    shown, real.resolve(name), stream.newDirectoryStream(entry(name), LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            throw linkOr(name, e);
        }
    }

    @Override
    OpenFolder reopen(Path shown) throws IOException {
        return new SecureFolder(shown, real, stream.newDirectoryStream(SELF, LinkOption.NOFOLLOW_LINKS));
    }

    @Override
    public BasicFileAttributes ownAttributes() throws IOException {
        return stream.getFileAttributeView(BasicFileAttributeView.class).readAttributes();
    }

    /**
     * The JDK has no {@code mkdirat}, so a folder is created by path: first this folder's real path is checked to
     * still lead to the folder held open (the same file key), so a folder above swapped for a link is refused. What
     * remains is the instant between that check and the creation, in which the most a swap can do is create one
     * empty folder elsewhere: it is then opened through this handle, where it is missing, and nothing is written.
     */
    @Override
    public void createFolder(String name) throws IOException {
        requireInPlace();
        createFolderAt(real.resolve(entry(name)), name);
    }

    /** Checks that this folder's real path still leads to the folder held open (the same file key). */
    private void requireInPlace() throws IOException {
        Object held = ownAttributes().fileKey();
        Object there = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .fileKey();
        if (!Objects.equals(held, there)) {
            throw new PathChangedException(
                    path(), "was moved or replaced after the path was checked; nothing was created in it");
        }
    }

    /**
     * Created by path, as a folder is (see {@link #createFolder}); a swap in the instant between the check and the
     * creation puts the link elsewhere, where it is not found through this handle: it is then removed by the same path
     * (its name is the caller's own, unlikely to be anyone else's) and the creation is refused.
     */
    @Override
    public void createLink(String name, Path target) throws IOException {
        requireInPlace();
        Path at = real.resolve(entry(name));
        Files.createSymbolicLink(at, target);
        if (!attributes(name).map(BasicFileAttributes::isSymbolicLink).orElse(false)) {
            PathChangedException moved = new PathChangedException(
                    path(), "was moved or replaced while a link was created in it; the link was not kept");
            try {
                Files.deleteIfExists(at);
            } catch (IOException cleanup) {
                moved.addSuppressed(cleanup);
            }
            throw moved;
        }
    }

    @Override
    public SeekableByteChannel create(String name) throws IOException {
        return stream.newByteChannel(
                entry(name),
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    }

    @Override
    public void rename(String from, String to) throws IOException {
        stream.move(entry(from), stream, entry(to));
    }

    @Override
    public void delete(String name) throws IOException {
        stream.deleteFile(entry(name));
    }

    @Override
    public void deleteFolder(String name) throws IOException {
        stream.deleteDirectory(entry(name));
    }

    @Override
    public PosixFileAttributeView posixView(String name) {
        return stream.getFileAttributeView(entry(name), PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public void close() throws IOException {
        stream.close();
    }
}
