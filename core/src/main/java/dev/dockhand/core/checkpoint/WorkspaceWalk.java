package dev.dockhand.core.checkpoint;

import dev.dockhand.core.glob.IgnoreFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.dircache.InvalidPathException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * One walk of the workspace against the shadow index: the entries a snapshot records, with one {@code lstat} per file
 * and no read of a file whose mode, size, modification time (to the nanosecond) and change time (to the millisecond)
 * are those its entry recorded. The change time is what tells a file rewritten to the same size with its modification
 * time put back ({@code touch -r}, {@code cp -p}, {@code rsync -t}) from one left alone: no one can set it back.
 *
 * <p>Two shortcuts make a walk of an unchanged workspace cheap, each with the case that would make it wrong handled:
 *
 * <ul>
 *   <li>A path the index holds was not ignored when it was recorded, so the ignore rules are matched against it only
 *       when they may have changed since: when a {@code .gitignore} of its folder or of a folder above it is new, gone,
 *       or not provably the one recorded (its stat differs from its entry's, or its entry is racily clean). New paths
 *       and folders are always matched.
 *   <li>An entry's stat is trusted only once the file is older than the snapshot that recorded it by more than
 *       {@link #RACY}: a file changed again within the same timestamp tick as the write before it (and after the
 *       snapshot read it) keeps its size and times, so an entry recorded that close to its file's times is stored
 *       smudged (git's "racily clean"), and the next snapshot reads the file again and trusts it only then.
 * </ul>
 */
final class WorkspaceWalk {
    /**
     * How close to a snapshot's start a file's time must be for its entry not to be trusted: beyond any file system's
     * timestamp tick (FAT's two seconds) and the lag of the kernel's file clock behind the system clock.
     */
    static final Duration RACY = Duration.ofSeconds(2);

    /** A file is read whole into memory to be stored: larger ones are left out, whatever the size limit says. */
    private static final long LARGEST = Integer.MAX_VALUE - 8;

    /** What an {@code lstat} is asked for: one call, the change time included, which no other view gives. */
    private static final String UNIX_STAT = "unix:mode,size,lastModifiedTime,ctime";

    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;
    private static final int S_IXUSR = 0100;

    private final long maxFileSize;
    private final List<String> excluded;
    private final Map<String, DirCacheEntry> known;
    private final ObjectInserter inserter;
    private final Instant trustedBefore;
    private final boolean unix;
    private final List<DirCacheEntry> entries = new ArrayList<>();
    private final Set<String> refused = new TreeSet<>();
    private int kept;
    private boolean rewritten;

    /**
     * What a walk found.
     *
     * @param entries every file to record, in no particular order
     * @param changed whether they differ from the index's entries (an entry added, gone, or re-recorded)
     * @param refused names git refuses, left out
     */
    record Result(List<DirCacheEntry> entries, boolean changed, Set<String> refused) {}

    /** The rules of one {@code .gitignore}, for the folder {@code prefix} ("" or "a/b/"), inside those above it. */
    private record Rules(IgnoreFile file, String prefix, Rules outer) {}

    /**
     * What one {@code lstat} says of a path.
     *
     * @param mode what git records it as; null for a folder and for what git does not record (a pipe)
     * @param changed its change time in milliseconds; 0 where the file system has none
     */
    private record Stat(FileMode mode, boolean folder, long size, Instant modified, long changed) {}

    private WorkspaceWalk(
            long maxFileSize,
            List<String> excluded,
            Map<String, DirCacheEntry> known,
            ObjectInserter inserter,
            Instant start,
            boolean unix) {
        this.maxFileSize = maxFileSize;
        this.excluded = excluded;
        this.known = known;
        this.inserter = inserter;
        this.trustedBefore = start.minus(RACY);
        this.unix = unix;
    }

    /**
     * Walks {@code root} against {@code index}, storing through {@code inserter} the blobs of files read.
     *
     * @param start when the snapshot began (before the index was read): files changed since may change again unseen
     */
    static Result walk(
            Path root, long maxFileSize, List<String> excluded, DirCache index, ObjectInserter inserter, Instant start)
            throws IOException {
        Map<String, DirCacheEntry> known = new HashMap<>(Math.max(16, index.getEntryCount() * 2));
        for (int i = 0; i < index.getEntryCount(); i++) {
            DirCacheEntry entry = index.getEntry(i);
            known.put(entry.getPathString(), entry);
        }
        boolean unix = root.getFileSystem().supportedFileAttributeViews().contains("unix");
        WorkspaceWalk walk = new WorkspaceWalk(maxFileSize, excluded, known, inserter, start, unix);
        walk.folder(root, "", null, false);
        boolean changed = walk.rewritten || walk.kept != known.size();
        return new Result(walk.entries, changed, walk.refused);
    }

    private void folder(Path folder, String prefix, Rules outer, boolean rulesChanged) throws IOException {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder)) {
            for (Path child : stream) {
                children.add(child);
            }
        } catch (IOException e) {
            // Gone or unreadable: nothing under it is recorded, as git's own walk would have it.
            return;
        }
        Rules rules = outer;
        boolean changed = rulesChanged;
        DirCacheEntry recordedIgnore = known.get(prefix + Constants.DOT_GIT_IGNORE);
        Path ignoreFile = folder.resolve(Constants.DOT_GIT_IGNORE);
        Stat ignoreStat = stat(ignoreFile);
        if (ignoreStat == null) {
            changed |= recordedIgnore != null;
        } else {
            changed |= recordedIgnore == null || !clean(recordedIgnore, ignoreStat);
            if (ignoreStat.mode() == FileMode.REGULAR_FILE || ignoreStat.mode() == FileMode.EXECUTABLE_FILE) {
                IgnoreFile file = IgnoreFile.EMPTY;
                try (InputStream in = Files.newInputStream(ignoreFile, LinkOption.NOFOLLOW_LINKS)) {
                    file = IgnoreFile.read(in);
                } catch (IOException e) {
                    // Unreadable rules are no rules, as for git; the file itself is still recorded below if it can be.
                }
                if (!file.isEmpty()) {
                    rules = new Rules(file, prefix, outer);
                }
            }
        }
        for (Path child : children) {
            String name = child.getFileName().toString();
            if (name.equals(Constants.DOT_GIT)) {
                // The project's repository, and any nested one's: never recorded, never opened.
                continue;
            }
            String path = prefix + name;
            if (isExcluded(path)) {
                continue;
            }
            Stat stat = stat(child);
            if (stat == null) {
                continue;
            }
            if (stat.folder()) {
                if (!ignored(path, true, rules)) {
                    folder(child, path + "/", rules, changed);
                }
                continue;
            }
            if (stat.mode() == null || stat.size() > maxFileSize || stat.size() > LARGEST) {
                continue;
            }
            DirCacheEntry recorded = known.get(path);
            if ((recorded == null || changed) && ignored(path, false, rules)) {
                continue;
            }
            file(child, path, stat, recorded);
        }
    }

    private void file(Path file, String path, Stat stat, DirCacheEntry recorded) throws IOException {
        FileMode mode = stat.mode();
        if (recorded != null && mode != FileMode.SYMLINK && clean(recorded, stat)) {
            entries.add(recorded);
            kept++;
            return;
        }
        byte[] content;
        try {
            content = content(file, mode);
        } catch (AccessDeniedException e) {
            if (recorded != null) {
                // Unreadable now but recorded before: kept as recorded, so that a restore never takes a file it
                // could not read for one the call created, and removes it.
                entries.add(recorded);
                kept++;
            }
            return;
        }
        if (content == null) {
            return;
        }
        DirCacheEntry entry;
        try {
            entry = new DirCacheEntry(path);
        } catch (InvalidPathException e) {
            // A name git refuses (".Git", "git~1", ".git "): left out, or no snapshot could be taken at all.
            refused.add(path);
            return;
        }
        Instant modified = stat.modified();
        entry.setFileMode(mode);
        entry.setLength(stat.size());
        entry.setLastModified(modified);
        entry.setCreationTime(stat.changed());
        entry.setObjectId(inserter.insert(Constants.OBJ_BLOB, content));
        if (!modified.isBefore(trustedBefore) || stat.changed() >= trustedBefore.toEpochMilli()) {
            entry.smudgeRacilyClean();
        }
        if (recorded != null
                && recorded.getRawMode() == entry.getRawMode()
                && recorded.getObjectId().equals(entry.getObjectId())
                && recorded.getLength() == entry.getLength()
                && recorded.getLastModifiedInstant().equals(modified)
                && recorded.getCreationTime() == stat.changed()) {
            // Read again and found as recorded (a link, or a file still too recent to trust): nothing to write.
            entries.add(recorded);
            kept++;
            return;
        }
        entries.add(entry);
        rewritten = true;
    }

    /** Whether {@code recorded} provably holds the file whose stat is {@code stat}, without reading it. */
    private boolean clean(DirCacheEntry recorded, Stat stat) {
        return stat.mode() != null
                && recorded.getRawMode() == stat.mode().getBits()
                && !recorded.isSmudged()
                && recorded.getLength() == (int) stat.size()
                && recorded.getLastModifiedInstant().isBefore(trustedBefore)
                && recorded.getLastModifiedInstant().equals(stat.modified())
                && recorded.getCreationTime() == stat.changed();
    }

    /** The bytes to record: the file's, or the link's target; null when it went or grew past the limit meanwhile. */
    private byte[] content(Path file, FileMode mode) throws IOException {
        try {
            if (mode == FileMode.SYMLINK) {
                return Files.readSymbolicLink(file).toString().getBytes(StandardCharsets.UTF_8);
            }
            try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                byte[] content = in.readNBytes((int) Math.min(LARGEST, maxFileSize + 1));
                // Grown past the limit since its stat: left out, as it will be at the next snapshot.
                return content.length > maxFileSize || content.length >= LARGEST ? null : content;
            }
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The file's stat, not following a link, in one call; null when it is gone. */
    private Stat stat(Path file) {
        try {
            if (!unix) {
                BasicFileAttributes stat =
                        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                FileMode mode =
                        stat.isSymbolicLink() ? FileMode.SYMLINK : stat.isRegularFile() ? FileMode.REGULAR_FILE : null;
                return new Stat(
                        mode,
                        stat.isDirectory(),
                        stat.size(),
                        stat.lastModifiedTime().toInstant(),
                        0);
            }
            Map<String, Object> stat = Files.readAttributes(file, UNIX_STAT, LinkOption.NOFOLLOW_LINKS);
            int bits = (Integer) stat.get("mode");
            // The mode git records: a link, an executable or a plain file; null for what git does not record.
            FileMode mode =
                    switch (bits & S_IFMT) {
                        case S_IFLNK -> FileMode.SYMLINK;
                        case S_IFREG -> (bits & S_IXUSR) != 0 ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
                        default -> null;
                    };
            return new Stat(
                    mode,
                    (bits & S_IFMT) == S_IFDIR,
                    (Long) stat.get("size"),
                    ((FileTime) stat.get("lastModifiedTime")).toInstant(),
                    ((FileTime) stat.get("ctime")).toMillis());
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether the rules ignore {@code path}, whose folders the walk found not ignored: the innermost {@code .gitignore}
     * with a rule for it decides, each reading the path from its own folder. Each rule takes time proportional to the
     * path's length times its own ({@link IgnoreFile}), so no {@code .gitignore} can hold a walk up.
     */
    private static boolean ignored(String path, boolean folder, Rules rules) {
        for (Rules at = rules; at != null; at = at.outer()) {
            IgnoreFile.Verdict verdict = at.file().verdict(path, at.prefix().length(), folder);
            if (verdict != IgnoreFile.Verdict.UNDECIDED) {
                return verdict == IgnoreFile.Verdict.IGNORED;
            }
        }
        return false;
    }

    private boolean isExcluded(String path) {
        for (String folder : excluded) {
            if (path.equals(folder) || path.startsWith(folder + "/")) {
                return true;
            }
        }
        return false;
    }
}
