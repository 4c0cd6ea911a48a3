package dev.dockhand.core.checkpoint;

import dev.dockhand.core.tool.OpenFolder;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.slf4j.LoggerFactory;

/**
 * A git object store of its own, outside the workspace, whose work tree is the workspace: a snapshot is the tree of
 * the workspace's files as they are, written incrementally through the store's own index (a file whose size and times
 * did not change is not read again). The project's {@code .git} is never opened: git's own rules skip every entry
 * named {@code .git}, and this repository's folder is given explicitly, so nothing is discovered.
 *
 * <p>Files ignored by the workspace's {@code .gitignore} files, files over {@code maxFileSize}, and the given excluded
 * folders (Dockhand's own folder, when it lies inside the workspace) are left out. Nested repositories are taken as
 * plain folders, so what a command does inside them is recorded too.
 */
final class ShadowRepository implements AutoCloseable {
    /** A lock older than this was left by a process that died while snapshotting. */
    private static final Duration STALE_LOCK = Duration.ofMinutes(2);

    private final FileRepository repository;
    private final Path workspace;
    private final long maxFileSize;
    private final List<String> excluded;
    private Set<String> reportedRefused = Set.of();
    /** The index as last read or written; null until the first snapshot, and after a failed one. */
    private DirCache index;
    /** Tests only: runs when a restore has checked a file's folders and is about to write or remove it. */
    Runnable beforeChange = () -> {};

    /** One file of a snapshot: its blob and its mode (regular, executable or symlink). */
    record Entry(ObjectId blob, FileMode mode) {}

    private ShadowRepository(FileRepository repository, Path workspace, long maxFileSize, List<String> excluded) {
        this.repository = repository;
        this.workspace = workspace;
        this.maxFileSize = maxFileSize;
        this.excluded = excluded;
    }

    static ShadowRepository open(Path gitDir, Path workspace, long maxFileSize, List<Path> excludedFolders)
            throws IOException {
        IsolatedGitConfig.install();
        if (!Files.exists(gitDir.resolve("config"))) {
            // Created bare: a repository created with a work tree elsewhere writes a ".git" file into that work tree
            // pointing back at it, which would turn the user's folder into a repository of ours.
            try (FileRepository created = (FileRepository) new FileRepositoryBuilder()
                    .setGitDir(gitDir.toFile())
                    .setBare()
                    .build()) {
                created.create(true);
            }
        }
        FileRepository repository = (FileRepository) new FileRepositoryBuilder()
                .setGitDir(gitDir.toFile())
                .setWorkTree(workspace.toFile())
                .setIndexFile(gitDir.resolve("index").toFile())
                .build();
        StoredConfig existing = repository.getConfig();
        if (!existing.getBoolean("dockhand", null, "configured", false)) {
            StoredConfig config = existing;
            config.setBoolean("dockhand", null, "configured", true);
            // What is recorded is the bytes and the executable bit as they are, whatever the platform's defaults.
            config.setBoolean("core", null, "bare", false);
            config.setBoolean("core", null, "filemode", true);
            config.setBoolean("core", null, "symlinks", true);
            config.setString("core", null, "autocrlf", "false");
            config.setInt("gc", null, "auto", 0);
            config.save();
        }
        Path root = workspace.toAbsolutePath().normalize();
        List<String> excluded = excludedFolders.stream()
                .map(folder -> folder.toAbsolutePath().normalize())
                .filter(folder -> folder.startsWith(root) && !folder.equals(root))
                .map(folder -> root.relativize(folder).toString().replace(File.separatorChar, '/'))
                .toList();
        return new ShadowRepository(repository, root, maxFileSize, excluded);
    }

    FileRepository repository() {
        return repository;
    }

    /**
     * The tree of the workspace as it is now; unchanged files cost one stat each, and when nothing changed neither the
     * index nor any tree is written (the index's cached tree is the answer).
     */
    ObjectId snapshot() throws IOException {
        return snapshot(Instant.now());
    }

    /** The snapshot, taken as if it began at {@code start}: what tells a file too recent to trust its stat. */
    synchronized ObjectId snapshot(Instant start) throws IOException {
        DirCache locked = lockIndex();
        boolean consistent = false;
        try (ObjectInserter inserter = repository.newObjectInserter()) {
            WorkspaceWalk.Result walked = WorkspaceWalk.walk(workspace, maxFileSize, excluded, locked, inserter, start);
            ObjectId tree;
            if (walked.changed()) {
                DirCacheBuilder builder = locked.builder();
                walked.entries().forEach(builder::add);
                builder.finish();
                tree = locked.writeTree(inserter);
                inserter.flush();
                locked.write();
                consistent = locked.commit();
            } else {
                tree = locked.writeTree(inserter);
                inserter.flush();
                consistent = true;
            }
            warnRefused(walked.refused());
            return tree;
        } finally {
            locked.unlock();
            if (!consistent) {
                // What is in memory may not be what is on disk: the next snapshot reads the index afresh.
                index = null;
            }
        }
    }

    /** Warns of the names git refuses, once for each set of them, not at every snapshot. */
    private void warnRefused(Set<String> refused) {
        if (!refused.isEmpty() && !refused.equals(reportedRefused)) {
            LoggerFactory.getLogger(ShadowRepository.class)
                    .warn("these files are not recorded in checkpoints, git refuses their names: {}", refused);
        }
        reportedRefused = Set.copyOf(refused);
    }

    private boolean isExcluded(String path) {
        for (String folder : excluded) {
            if (path.equals(folder) || path.startsWith(folder + "/")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The index, locked and current; a lock left by a process that died is taken over once it is old enough. The same
     * index is kept from one snapshot to the next and read again only when its file changed (another Dockhand wrote
     * it): parsing 10,000 entries at every checkpoint was a tenth of its cost.
     */
    private DirCache lockIndex() throws IOException {
        if (index == null) {
            index = new DirCache(repository.getIndexFile(), repository.getFS());
        }
        Path lock = repository.getIndexFile().toPath().resolveSibling("index.lock");
        if (!index.lock()) {
            if (!Files.exists(lock)
                    || !Files.getLastModifiedTime(lock)
                            .toInstant()
                            .isBefore(Instant.now().minus(STALE_LOCK))) {
                throw new IOException(
                        "another Dockhand in this workspace is taking a checkpoint (" + lock + " is locked)");
            }
            Files.deleteIfExists(lock);
            if (!index.lock()) {
                throw new IOException(
                        "another Dockhand in this workspace is taking a checkpoint (" + lock + " is locked)");
            }
        }
        try {
            index.read();
        } catch (IOException | RuntimeException e) {
            index.unlock();
            index = null;
            throw e;
        }
        return index;
    }

    /** Every file of {@code tree}, by path, in path order. */
    Map<String, Entry> files(ObjectId tree) throws IOException {
        Map<String, Entry> files = new LinkedHashMap<>();
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(tree);
            walk.setRecursive(true);
            while (walk.next()) {
                files.put(walk.getPathString(), new Entry(walk.getObjectId(0), walk.getFileMode(0)));
            }
        }
        return files;
    }

    /** The paths whose content or mode differ between two trees (added, changed or removed), in path order. */
    List<String> changed(ObjectId before, ObjectId after) throws IOException {
        if (before.equals(after)) {
            return List.of();
        }
        List<String> paths = new java.util.ArrayList<>();
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(before);
            walk.addTree(after);
            walk.setRecursive(true);
            walk.setFilter(org.eclipse.jgit.treewalk.filter.TreeFilter.ANY_DIFF);
            while (walk.next()) {
                paths.add(walk.getPathString());
            }
        }
        return paths;
    }

    /** The file at {@code path} in {@code tree}; empty when the tree does not have it. */
    Optional<Entry> file(ObjectId tree, String path) throws IOException {
        try (TreeWalk walk = TreeWalk.forPath(repository, path, tree)) {
            if (walk == null || walk.isSubtree()) {
                return Optional.empty();
            }
            return Optional.of(new Entry(walk.getObjectId(0), walk.getFileMode(0)));
        }
    }

    /** A recorded blob's bytes, whole: for the small ones (tests, a link's target). */
    byte[] content(ObjectId blob) throws IOException {
        try (ObjectReader reader = repository.newObjectReader()) {
            return reader.open(blob, Constants.OBJ_BLOB).getCachedBytes(Integer.MAX_VALUE);
        }
    }

    /**
     * Puts {@code entry} at {@code path} in the workspace: its bytes, its executable bit, or the link it is. Returns why
     * it was not, when a folder on the way is a link or not a folder (restoring through it would write elsewhere), or
     * when a folder stands at {@code path} holding files: the restore's removals have already taken the recorded ones,
     * so what is left there no checkpoint ever recorded (an ignored {@code node_modules} or {@code .env}, a file too
     * large), and nothing a checkpoint cannot bring back is destroyed. A folder holding only folders is replaced.
     *
     * <p>Every step is taken relative to the folders held open from the workspace's root ({@link HeldPath}): the bytes
     * go to a new file created beside the target ({@code CREATE_NEW}, not following a link), which is then renamed
     * over it, so a folder on the way swapped for a link after the check cannot lead the write out of the workspace.
     */
    Optional<String> write(String path, Entry entry) throws IOException {
        try (HeldPath held = HeldPath.open(workspace, path)) {
            if (held.refused().isPresent()) {
                return held.refused();
            }
            String name = held.name();
            Optional<BasicFileAttributes> existing = held.attributes();
            if (existing.isPresent() && existing.get().isDirectory()) {
                List<String> files = HeldPath.files(held.folder(), name, 4);
                if (!files.isEmpty()) {
                    return Optional.of(heldBy(path, files));
                }
            }
            held.createFolders();
            OpenFolder folder = held.folder();
            // Not named after the file: a name near the system's limit of 255 bytes would leave no room for a suffix.
            String temporary = ".dockhand-restore-"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong());
            try (ObjectReader reader = repository.newObjectReader()) {
                ObjectLoader loader = reader.open(entry.blob(), Constants.OBJ_BLOB);
                if (entry.mode() == FileMode.SYMLINK) {
                    folder.createLink(temporary, Path.of(new String(loader.getCachedBytes(), StandardCharsets.UTF_8)));
                } else {
                    // CREATE_NEW never follows a link standing at the name; the bytes stream from the store.
                    try (OutputStream out = Channels.newOutputStream(folder.create(temporary))) {
                        loader.copyTo(out);
                    }
                    setPermissions(folder, temporary, name, existing, entry.mode() == FileMode.EXECUTABLE_FILE);
                }
                if (existing.isPresent() && existing.get().isDirectory()) {
                    try {
                        HeldPath.deleteEmptyFolders(folder, name);
                    } catch (DirectoryNotEmptyException e) {
                        // A file appeared in it since it was looked at: it stays, and so does the folder.
                        return Optional.of(heldBy(path, HeldPath.files(folder, name, 4)));
                    }
                }
                beforeChange.run();
                if (!held.inPlace()) {
                    return Optional.of(held.moved());
                }
                // A rename replaces a link standing at the name, never what it points to.
                folder.rename(temporary, name);
            } finally {
                try {
                    folder.delete(temporary);
                } catch (NoSuchFileException gone) {
                    // Renamed into place.
                }
            }
            return Optional.empty();
        }
    }

    /**
     * The new file's permissions, set once through its folder: those of the file it replaces (or its own), with the
     * executable bit as recorded, executable by whoever may read it, as git checks an executable file out.
     */
    private static void setPermissions(
            OpenFolder folder, String file, String name, Optional<BasicFileAttributes> replaced, boolean executable)
            throws IOException {
        PosixFileAttributeView created = folder.posixView(file);
        if (created == null) {
            return;
        }
        PosixFileAttributeView old =
                replaced.isPresent() && replaced.get().isRegularFile() ? folder.posixView(name) : null;
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        permissions.addAll((old != null ? old : created).readAttributes().permissions());
        if (executable) {
            permissions.add(PosixFilePermission.OWNER_EXECUTE);
            if (permissions.contains(PosixFilePermission.GROUP_READ)) {
                permissions.add(PosixFilePermission.GROUP_EXECUTE);
            }
            if (permissions.contains(PosixFilePermission.OTHERS_READ)) {
                permissions.add(PosixFilePermission.OTHERS_EXECUTE);
            }
        } else {
            permissions.removeAll(EnumSet.of(
                    PosixFilePermission.OWNER_EXECUTE,
                    PosixFilePermission.GROUP_EXECUTE,
                    PosixFilePermission.OTHERS_EXECUTE));
        }
        created.setPermissions(permissions);
    }

    /** Why a folder at {@code path}, holding {@code held} (a few of its files), is not replaced by the file. */
    private static String heldBy(String path, List<String> held) {
        List<String> shown =
                held.stream().map(file -> path + "/" + file).sorted().limit(3).toList();
        return path + " is a folder now, holding files no checkpoint recorded (" + String.join(", ", shown)
                + (held.size() > 3 ? ", ..." : "") + "): left as it is";
    }

    /**
     * Whether the file at {@code path} was last modified before {@code time}, not following a link: a file the
     * snapshot before a call lacks but that is older than the call was there already and left out. A file a call
     * extracted with its old times (tar, cp -p) counts as older too, and is kept rather than removed: the safe side.
     */
    boolean olderThan(String path, Instant time) {
        try (HeldPath held = HeldPath.open(workspace, path)) {
            return held.attributes()
                    .map(attributes -> attributes.lastModifiedTime().toInstant().isBefore(time))
                    .orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Removes the file at {@code path}, and the folders it leaves empty up to the workspace, relative to the folders
     * held open from the workspace's root (see {@link #write}). Returns why it was not, when a folder on the way is a
     * link or not a folder, or was swapped since it was opened.
     */
    Optional<String> delete(String path) throws IOException {
        try (HeldPath held = HeldPath.open(workspace, path)) {
            if (held.refused().isPresent()) {
                return held.refused();
            }
            if (!held.complete()) {
                return Optional.empty();
            }
            Optional<BasicFileAttributes> existing = held.attributes();
            if (existing.isPresent() && existing.get().isDirectory()) {
                return Optional.empty();
            }
            beforeChange.run();
            if (!held.inPlace()) {
                return Optional.of(held.moved());
            }
            try {
                held.folder().delete(held.name());
            } catch (NoSuchFileException gone) {
                // Removed meanwhile: what the restore wanted.
            }
            held.removeEmptyFolders();
            return Optional.empty();
        }
    }

    /**
     * The blob and mode {@code path} has in the workspace now, hashed but not stored; empty when absent, or when a
     * folder on the way is a link (what lies behind it is not the workspace's). A regular file is read only when its
     * size is that of one of {@code compared} (the recorded versions it is compared with): any other size differs
     * from all of them, so it is returned as an entry whose blob matches none ({@link ObjectId#zeroId}), and a file
     * grown past any size worth reading (a 3 GB {@code data.csv}) is never read at all. What is read is hashed as it
     * streams, never held whole.
     */
    Optional<Entry> current(String path, List<Optional<Entry>> compared) throws IOException {
        try (HeldPath held = HeldPath.open(workspace, path)) {
            Optional<BasicFileAttributes> attributes = held.attributes();
            if (attributes.isEmpty()) {
                return Optional.empty();
            }
            OpenFolder folder = held.folder();
            if (attributes.get().isSymbolicLink()) {
                return link(folder, held.name(), attributes.get())
                        .map(target -> new Entry(hash(target), FileMode.SYMLINK));
            }
            if (!attributes.get().isRegularFile()) {
                return Optional.empty();
            }
            PosixFileAttributeView posix = folder.posixView(held.name());
            boolean executable = posix != null
                    ? posix.readAttributes().permissions().contains(PosixFilePermission.OWNER_EXECUTE)
                    : Files.isExecutable(workspace.resolve(path));
            FileMode mode = executable ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
            long size = attributes.get().size();
            boolean worthReading = false;
            try (ObjectReader reader = repository.newObjectReader()) {
                for (Optional<Entry> recorded : compared) {
                    if (recorded.isPresent()
                            && recorded.get().mode() != FileMode.SYMLINK
                            && reader.getObjectSize(recorded.get().blob(), Constants.OBJ_BLOB) == size) {
                        worthReading = true;
                    }
                }
            }
            if (!worthReading) {
                return Optional.of(new Entry(ObjectId.zeroId(), mode));
            }
            try (InputStream in = Channels.newInputStream(folder.read(held.name()));
                    ObjectInserter.Formatter formatter = new ObjectInserter.Formatter()) {
                return Optional.of(new Entry(formatter.idFor(Constants.OBJ_BLOB, size, in), mode));
            } catch (EOFException shrunk) {
                // Shorter than its stat said: changed as it was read, so it is none of the recorded versions.
                return Optional.of(new Entry(ObjectId.zeroId(), mode));
            }
        }
    }

    /**
     * A link's target, read by path (the JDK has no {@code readlinkat}) and taken only when the link read is the one
     * held (the same file key before and after): what is read is then only compared, never followed or written.
     */
    private Optional<byte[]> link(OpenFolder folder, String name, BasicFileAttributes seen) throws IOException {
        Path at = folder.path().resolve(name);
        Object key = seen.fileKey();
        if (!Objects.equals(key, keyOf(at))) {
            return Optional.empty();
        }
        byte[] target = Files.readSymbolicLink(at).toString().getBytes(StandardCharsets.UTF_8);
        return Objects.equals(key, keyOf(at)) ? Optional.of(target) : Optional.empty();
    }

    private static Object keyOf(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .fileKey();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static ObjectId hash(byte[] content) {
        try (ObjectInserter.Formatter formatter = new ObjectInserter.Formatter()) {
            return formatter.idFor(Constants.OBJ_BLOB, content);
        }
    }

    /** Keeps a snapshot reachable under {@code ref}, as a commit, so pruning can tell what is still wanted. */
    void keep(String ref, ObjectId tree, Optional<ObjectId> parent) throws IOException {
        try (ObjectInserter inserter = repository.newObjectInserter()) {
            CommitBuilder commit = new CommitBuilder();
            PersonIdent dockhand = new PersonIdent("Dockhand", "checkpoints@dockhand.invalid");
            commit.setAuthor(dockhand);
            commit.setCommitter(dockhand);
            commit.setTreeId(tree);
            parent.ifPresent(commit::setParentId);
            commit.setMessage(ref);
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            RefUpdate update = repository.updateRef(ref);
            update.setNewObjectId(id);
            update.setForceUpdate(true);
            update.disableRefLog();
            RefUpdate.Result result = update.update();
            if (result != RefUpdate.Result.NEW
                    && result != RefUpdate.Result.FORCED
                    && result != RefUpdate.Result.NO_CHANGE) {
                throw new IOException("cannot record " + ref + " (" + result + ")");
            }
        }
    }

    /** The commit {@code ref} points to, if any. */
    Optional<ObjectId> ref(String ref) throws IOException {
        return Optional.ofNullable(repository.exactRef(ref)).map(org.eclipse.jgit.lib.Ref::getObjectId);
    }

    void dropRef(String ref) throws IOException {
        RefUpdate update = repository.updateRef(ref);
        update.setForceUpdate(true);
        update.delete();
    }

    @Override
    public void close() {
        repository.close();
    }
}
