package dev.dockhand.sandbox;

import dev.dockhand.core.FileTrees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * A container's side of a synced root stood in for by a folder of this machine ({@code box}, which holds what the
 * container would hold at the root's path): for tests that order the sync's steps against other writers of the
 * host's files, which a real engine cannot hold still at a chosen point. Listing and stamps come from the folder as
 * {@link HostFiles} reads it; {@link #content} lets a test wrap each file's content as the copy back reads it.
 */
final class FolderContainerFiles extends ContainerFiles {
    private final Path box;
    private volatile UnaryOperator<InputStream> content = UnaryOperator.identity();

    FolderContainerFiles(Path box) {
        super(null, "folder", 0, 0);
        this.box = box;
    }

    /** Wraps the content of each file the copy back takes out. */
    void content(UnaryOperator<InputStream> wrapper) {
        content = wrapper;
    }

    @Override
    TreeMap<String, SyncEntry> list(Path root, Collection<String> pruned) throws IOException {
        TreeMap<String, SyncEntry> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(box)) {
            for (Path found : (Iterable<Path>) walk::iterator) {
                String path = HostFiles.relative(box, found);
                if (path.isEmpty() || pruned.stream().anyMatch(folder -> path.startsWith(folder + "/"))) {
                    continue;
                }
                HostFiles.entry(found).ifPresent(entry -> entries.put(path, entry));
            }
        }
        return entries;
    }

    @Override
    TreeMap<String, SyncEntry> stat(Path root, Collection<String> paths) throws IOException {
        TreeMap<String, SyncEntry> entries = new TreeMap<>();
        for (String path : paths) {
            HostFiles.entry(box.resolve(path)).ifPresent(entry -> entries.put(path, entry));
        }
        return entries;
    }

    @Override
    void remove(Path root, Collection<String> paths) throws IOException {
        for (String path : paths) {
            Path target = box.resolve(path);
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                FileTrees.deleteTree(target);
            } else {
                Files.deleteIfExists(target);
            }
        }
    }

    @Override
    void put(Path root, Collection<String> paths, Map<String, SyncEntry> entries, boolean folders) throws IOException {
        for (String path : new TreeSet<>(paths)) {
            Path source = root.resolve(path);
            Path target = box.resolve(path);
            Files.createDirectories(target.getParent());
            switch (entries.get(path).type()) {
                case DIR -> Files.createDirectories(target);
                case FILE -> Files.copy(
                        source, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                case LINK -> {
                    Files.deleteIfExists(target);
                    Files.createSymbolicLink(target, Files.readSymbolicLink(source));
                }
            }
        }
    }

    @Override
    void fetch(Path root, Collection<String> paths, long maxBytes, Receiver receiver) throws IOException {
        for (String path : new TreeSet<>(paths)) {
            Path source = box.resolve(path);
            Optional<SyncEntry> found = HostFiles.entry(source);
            if (found.isEmpty()) {
                continue;
            }
            SyncEntry entry = found.get();
            switch (entry.type()) {
                case DIR -> receiver.accept(path, new TarArchiveEntry(path + "/"), InputStream.nullInputStream());
                case LINK -> {
                    TarArchiveEntry link = new TarArchiveEntry(path, TarConstants.LF_SYMLINK);
                    link.setLinkName(entry.link());
                    receiver.accept(path, link, InputStream.nullInputStream());
                }
                case FILE -> {
                    TarArchiveEntry file = new TarArchiveEntry(path);
                    file.setSize(entry.size());
                    file.setMode(0100000 | entry.mode());
                    file.setModTime(Files.getLastModifiedTime(source));
                    try (InputStream in = Files.newInputStream(source)) {
                        receiver.accept(path, file, content.apply(in));
                    }
                }
            }
        }
    }
}
