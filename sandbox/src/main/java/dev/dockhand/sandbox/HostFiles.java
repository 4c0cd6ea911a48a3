package dev.dockhand.sandbox;

import dev.dockhand.core.FileTrees;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host's side of a synced root: what is there (one walk that follows no link and skips what is ignored), and
 * writing back what a command changed without ever following a link: the container is untrusted, and a command may
 * have planted a link to {@code /etc} or {@code ~/.ssh} where the host has a folder. A file is written to a fresh
 * temporary name beside its target ({@code CREATE_NEW} never follows a link standing at a name) and renamed over it
 * (a rename replaces a link, never what it points to), and nothing is written below a folder that is a link.
 */
final class HostFiles {
    private static final Logger log = LoggerFactory.getLogger(HostFiles.class);
    /**
     * The temporary files being written, beside their targets in the user's workspace: a copy-back given up on at the
     * end of a session goes on, on a daemon thread the exit stops half-way, and the exit removes what it left.
     */
    private static final Set<Path> UNFINISHED = ConcurrentHashMap.newKeySet();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(HostFiles::removeUnfinished, "dockhand-unfinished-writes"));
        } catch (IllegalStateException exiting) {
            // First used as the JVM exits: whatever it writes then is not waited for either way.
        }
    }

    private HostFiles() {}

    /** What a walk of a root found: the paths to sync, in path order, and the files left out for their size. */
    record Scan(TreeMap<String, SyncEntry> entries, List<String> oversized, long totalBytes) {}

    static Scan scan(Path root, SyncIgnores ignores, SyncLimits limits) throws IOException {
        TreeMap<String, SyncEntry> entries = new TreeMap<>();
        List<String> oversized = new ArrayList<>();
        long[] total = {0};
        Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) throws IOException {
                if (folder.equals(root)) {
                    return FileVisitResult.CONTINUE;
                }
                String path = relative(root, folder);
                if (ignores.ignored(path, true)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                entries.put(path, entry(folder).orElse(SyncEntry.folder(0755)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                String path = relative(root, file);
                if (!(attributes.isRegularFile() || attributes.isSymbolicLink()) || ignores.ignored(path, false)) {
                    return FileVisitResult.CONTINUE;
                }
                if (attributes.isRegularFile() && attributes.size() > limits.maxFileBytes()) {
                    oversized.add(path);
                    return FileVisitResult.CONTINUE;
                }
                Optional<SyncEntry> entry = entry(file);
                if (entry.isPresent()) {
                    entries.put(path, entry.get());
                    total[0] += entry.get().size();
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                log.warn("could not read {}; it is not copied into the sandbox", file, e);
                return FileVisitResult.CONTINUE;
            }
        });
        return new Scan(entries, List.copyOf(oversized), total[0]);
    }

    /** The entry of {@code path} now, without following a link; empty when it is missing or of another kind. */
    static Optional<SyncEntry> entry(Path path) throws IOException {
        Map<String, Object> unix;
        try {
            unix = Files.readAttributes(
                    path, "unix:mode,size,ctime,isDirectory,isRegularFile,isSymbolicLink", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
            return Optional.empty();
        } catch (FileSystemException e) {
            // ENOTDIR: a folder on the way is a file now (one a command made where a folder stood), so nothing is here.
            if (!Files.isDirectory(path.getParent(), LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            throw e;
        }
        int mode = (Integer) unix.get("mode") & 07777;
        String stamp = unix.get("ctime").toString();
        if ((Boolean) unix.get("isSymbolicLink")) {
            return Optional.of(new SyncEntry(
                    SyncEntry.Type.LINK,
                    0,
                    stamp,
                    0777,
                    Files.readSymbolicLink(path).toString()));
        }
        if ((Boolean) unix.get("isDirectory")) {
            return Optional.of(SyncEntry.folder(mode));
        }
        if ((Boolean) unix.get("isRegularFile")) {
            return Optional.of(new SyncEntry(SyncEntry.Type.FILE, (Long) unix.get("size"), stamp, mode, ""));
        }
        return Optional.empty();
    }

    static String relative(Path root, Path path) {
        return root.relativize(path).toString().replace('\\', '/');
    }

    /**
     * Why {@code path} cannot be written through its folders: one, from the root down, is a link or not a folder.
     * Empty when each is a real folder or missing.
     */
    static Optional<String> unsafeFolder(Path root, String path) {
        Path folder = root;
        String[] names = path.split("/", -1);
        for (String name : names) {
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                return Optional.of(path + " is not a plain path inside the workspace");
            }
        }
        for (int i = 0; i < names.length - 1; i++) {
            folder = folder.resolve(names[i]);
            if (Files.isSymbolicLink(folder)) {
                return Optional.of(relative(root, folder) + " is a symbolic link");
            }
            if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(relative(root, folder) + " is not a folder");
            }
        }
        return Optional.empty();
    }

    /**
     * Why the sync must leave the host's {@code path} as it is rather than write or remove it: the host has it
     * otherwise than {@code synced} (the host's paths as last synced) recorded it, so the user changed it while the
     * command ran, or has it without a record, so it was never copied in (too large, or new on the host); and a folder
     * to be replaced must hold nothing the sync did not record (an ignored or oversized file). Empty when the host has
     * it as recorded, or has nothing where nothing was recorded.
     */
    static Optional<String> conflict(Path root, String path, Map<String, SyncEntry> synced) throws IOException {
        Path target = root.resolve(path);
        SyncEntry recorded = synced.get(path);
        Optional<SyncEntry> now = entry(target);
        if (recorded == null) {
            return Files.exists(target, LinkOption.NOFOLLOW_LINKS) ? Optional.of("not synced") : Optional.empty();
        }
        if (now.isEmpty() || !recorded.same(now.get())) {
            return Optional.of("changed on both sides");
        }
        if (recorded.type() == SyncEntry.Type.DIR) {
            List<String> unsynced = new ArrayList<>();
            Files.walkFileTree(target, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes)
                        throws IOException {
                    return check(folder);
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    return check(file);
                }

                private FileVisitResult check(Path found) throws IOException {
                    String relative = relative(root, found);
                    Optional<SyncEntry> there = entry(found);
                    SyncEntry known = synced.get(relative);
                    if (known == null || there.isEmpty() || !known.same(there.get())) {
                        unsynced.add(relative);
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            if (!unsynced.isEmpty()) {
                return Optional.of("the folder holds " + unsynced.get(0) + ", which was not synced");
            }
        }
        return Optional.empty();
    }

    /** Makes {@code path} a folder with {@code mode}, replacing a file or link standing there. */
    static Optional<String> folder(Path root, String path, int mode) throws IOException {
        Optional<String> unsafe = unsafeFolder(root, path);
        if (unsafe.isPresent()) {
            return unsafe;
        }
        Path target = root.resolve(path);
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            Files.deleteIfExists(target);
            Files.createDirectories(target);
        }
        // The owner keeps the right to write in it: the files the command put there come next.
        Files.setPosixFilePermissions(target, permissions(mode | 0700));
        return Optional.empty();
    }

    /**
     * Puts a file with {@code content} (or, when {@code link} is not null, a link to it) at {@code path}, replacing
     * the file or link standing there, never writing through a link. A folder standing there is replaced only when it
     * holds nothing but folders: the caller removes first what of it the sync copied in and the container no longer
     * has, and what is left (a file ignored or too large to be copied in, one the user made since) is the host's own.
     *
     * @throws DirectoryNotEmptyException when a folder at {@code path} holds a file or link; it is left as it is and
     *     nothing is written
     */
    static Optional<String> write(Path root, String path, InputStream content, String link, int mode, FileTime modified)
            throws IOException {
        Optional<String> unsafe = unsafeFolder(root, path);
        if (unsafe.isPresent()) {
            return unsafe;
        }
        Path target = root.resolve(path);
        Path parent = target.getParent();
        Files.createDirectories(parent);
        Path temporary = parent.resolve("." + target.getFileName() + ".dockhand-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        UNFINISHED.add(temporary);
        try {
            if (link != null) {
                Files.createSymbolicLink(temporary, Path.of(link));
            } else {
                try (OutputStream out =
                        Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    content.transferTo(out);
                }
                Files.setPosixFilePermissions(temporary, permissions(mode));
                Files.setLastModifiedTime(temporary, modified);
            }
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                FileTrees.deleteEmptyFolders(target);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
            UNFINISHED.remove(temporary);
        }
        return Optional.empty();
    }

    /**
     * Removes the temporary files of writes under way; at exit. A write whose file is removed under it fails at its
     * rename, so its target keeps what it had.
     */
    static void removeUnfinished() {
        for (Path temporary : UNFINISHED) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                log.debug("removing an unfinished copy {} failed", temporary, e);
            }
        }
    }

    /**
     * Removes the file or link at {@code path}, or the folder if it is empty: a folder the container removed may hold
     * files of the host's that were never copied in (ignored ones), which stay.
     */
    static Optional<String> delete(Path root, String path) throws IOException {
        Optional<String> unsafe = unsafeFolder(root, path);
        if (unsafe.isPresent()) {
            return unsafe;
        }
        try {
            Files.deleteIfExists(root.resolve(path));
        } catch (DirectoryNotEmptyException keptForTheHostsOwnFiles) {
            // Only what was synced is removed; the rest of the folder is the host's.
        }
        return Optional.empty();
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
        };
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                permissions.add(bits[i]);
            }
        }
        return permissions;
    }
}
