package dev.dockhand.sandbox;

import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One root of the workspace (the workspace or an included folder) kept the same in a container that cannot mount it.
 * It remembers each side as it last saw it, in agreement: before a command, what the host changed since (the file
 * tools, the user's editor) is copied in and what it removed is removed; after it, what the command changed is copied
 * back and what it removed is removed, and only that. Ignored paths (see {@link SyncIgnores}) go neither way, nor
 * do files over the size limit; the protected paths (see {@link ProtectedLayout}, and whatever its rules name) are
 * copied in but never back: a command's change to one is reported and undone in the container before the next
 * command, as a read-only mount would have refused it.
 */
final class SyncedRoot {
    private static final Logger log = LoggerFactory.getLogger(SyncedRoot.class);
    private static final String GITIGNORE = ".gitignore";

    private final Path root;
    private final SyncLimits limits;
    private final Supplier<List<ProtectedLayout>> layouts;
    /** The host's paths as last synced. */
    private TreeMap<String, SyncEntry> host = new TreeMap<>();
    /** The container's paths as last seen. */
    private TreeMap<String, SyncEntry> container = new TreeMap<>();
    /** Protected paths a command changed, to be put back as the host has them (or removed) before the next one. */
    private final Set<String> restore = new TreeSet<>();
    /** Ignored folders of the container, left out of its listing. */
    private final Set<String> pruned = new TreeSet<>();

    SyncedRoot(Path root, SyncLimits limits, Supplier<List<ProtectedLayout>> layouts) {
        this.root = root;
        this.limits = limits;
        this.layouts = layouts;
    }

    Path root() {
        return root;
    }

    /** Copies the root into a fresh container: its folders, files and links, less what is ignored or too large. */
    void copyIn(ContainerFiles files) throws IOException {
        HostFiles.Scan scan = HostFiles.scan(root, new SyncIgnores(root), limits);
        if (scan.totalBytes() > limits.maxTotalBytes()) {
            throw new IOException("the files of " + root + " to copy into the remote sandbox add up to "
                    + size(scan.totalBytes()) + ", more than the limit of " + size(limits.maxTotalBytes())
                    + "; add large folders to .gitignore or raise " + SyncLimits.MAX_TOTAL);
        }
        if (!scan.oversized().isEmpty()) {
            log.info("not copied into the sandbox, larger than {}: {}", size(limits.maxFileBytes()), scan.oversized());
        }
        host = scan.entries();
        restore.clear();
        pruned.clear();
        files.put(root, host.keySet(), host, true);
        container = files.list(root, pruned);
    }

    /** Before a command: copies in what the host changed since the last sync, removes what it removed. */
    void push(ContainerFiles files) throws IOException {
        TreeMap<String, SyncEntry> now =
                HostFiles.scan(root, new SyncIgnores(root), limits).entries();
        TreeSet<String> put = new TreeSet<>();
        TreeSet<String> remove = new TreeSet<>();
        now.forEach((path, entry) -> {
            if (!entry.same(host.get(path))) {
                put.add(path);
            }
        });
        host.keySet().stream().filter(path -> !now.containsKey(path)).forEach(remove::add);
        for (String path : restore) {
            (now.containsKey(path) ? put : remove).add(path);
        }
        for (String path : put) {
            SyncEntry there = container.get(path);
            if (there != null && there.type() != now.get(path).type()) {
                // The archive does not turn a folder into a file: the old one goes first.
                remove.add(path);
            }
        }
        if (!remove.isEmpty()) {
            files.remove(root, remove);
            remove.forEach(path -> removeTree(container, path));
        }
        if (!put.isEmpty()) {
            files.put(root, put, now, false);
            container.putAll(files.stat(root, put));
        }
        if (put.stream().anyMatch(SyncedRoot::isGitignore) || remove.stream().anyMatch(SyncedRoot::isGitignore)) {
            pruned.clear();
        }
        host = now;
        restore.clear();
    }

    /** After a command: copies back what it changed, removes what it removed; returns what it could not do. */
    List<CopyBackNotice> pull(ContainerFiles files) throws IOException {
        TreeMap<String, SyncEntry> now = files.list(root, pruned);
        // Looked up once: copying back .gitignore files first changes nothing of the git folders it looks at.
        List<Path> absent = absent();
        Changes changes = changes(now, Set.of(), absent);
        Set<String> written = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        if (!changes.gitignores.isEmpty()) {
            // New rules decide what else comes back, so they come back first.
            copyBack(changes, files, changes.gitignores, now, written, problems);
            pruned.clear();
            Changes first = changes;
            changes = changes(now, written, absent);
            changes.conflicts.putAll(first.conflicts);
        }
        for (String folder : changes.folders) {
            Optional<SyncEntry> there = HostFiles.entry(root.resolve(folder));
            // A folder the host has as the sync left it only takes the new mode; anything else must be as recorded.
            if (!(there.isPresent() && there.get().same(host.get(folder)))
                    && conflict(changes, folder).isPresent()) {
                continue;
            }
            report(
                    problems,
                    folder,
                    HostFiles.folder(root, folder, now.get(folder).mode() & 0777));
            written.add(folder);
        }
        withinLimit(changes.files, now);
        // Where the command put a file in place of a folder, the folder's files it had from the host go before the
        // file is written, so that what is left in the folder is what it never had, and the folder stays. Every other
        // removal waits until the files are written: if the copy back fails part way, a renamed file is still on the
        // host under its old name rather than under neither.
        // So does a name whose case alone changed (mv Foo.txt foo.txt): on a host that ignores case the two are one
        // file, which must go under its old name before it is written under its new one.
        Set<String> writtenLowered = new HashSet<>();
        changes.files.forEach(path -> writtenLowered.add(path.toLowerCase(Locale.ROOT)));
        TreeSet<String> underReplacedFolders = new TreeSet<>();
        for (String path : changes.removed) {
            if (underAny(path, changes.files) || writtenLowered.contains(path.toLowerCase(Locale.ROOT))) {
                underReplacedFolders.add(path);
            }
        }
        remove(changes, underReplacedFolders, written, problems);
        copyBack(changes, files, changes.files, now, written, problems);
        TreeSet<String> rest = new TreeSet<>(changes.removed);
        rest.removeAll(underReplacedFolders);
        remove(changes, rest, written, problems);
        for (String path : written) {
            Optional<SyncEntry> entry = HostFiles.entry(root.resolve(path));
            if (entry.isPresent()) {
                host.put(path, entry.get());
            } else {
                host.remove(path);
            }
        }
        container = now;
        restore.addAll(changes.protectedPaths);
        return notices(changes, problems);
    }

    /** Removes {@code paths} from the host, deepest first, except where the host's copy is not the one synced. */
    private void remove(Changes changes, TreeSet<String> paths, Set<String> written, List<String> problems)
            throws IOException {
        for (String path : paths.descendingSet()) {
            if (!Files.exists(root.resolve(path), LinkOption.NOFOLLOW_LINKS)) {
                // Already gone: the user removed it too.
                written.add(path);
                continue;
            }
            if (conflict(changes, path).isPresent()) {
                continue;
            }
            report(problems, path, HostFiles.delete(root, path));
            written.add(path);
        }
    }

    /** Whether a folder above {@code path} is one of {@code files}: a folder a command replaced by a file. */
    private static boolean underAny(String path, Set<String> files) {
        for (int slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
            if (files.contains(path.substring(0, slash))) {
                return true;
            }
        }
        return false;
    }

    /** What a command changed, sorted by what becomes of it. */
    private static final class Changes {
        final TreeSet<String> gitignores = new TreeSet<>();
        final TreeSet<String> folders = new TreeSet<>();
        final TreeSet<String> files = new TreeSet<>();
        final TreeSet<String> removed = new TreeSet<>();
        final TreeSet<String> protectedPaths = new TreeSet<>();
        final TreeSet<String> oversized = new TreeSet<>();
        /** Paths left as the host has them, with why. */
        final TreeMap<String, String> conflicts = new TreeMap<>();
    }

    /** Why the host's {@code path} is left as it is, now noted in {@code changes}; empty when it may be written. */
    private Optional<String> conflict(Changes changes, String path) throws IOException {
        Optional<String> reason = HostFiles.conflict(root, path, host);
        reason.ifPresent(why -> changes.conflicts.put(path, why));
        return reason;
    }

    private Changes changes(TreeMap<String, SyncEntry> now, Set<String> done, List<Path> absent) {
        SyncIgnores ignores = new SyncIgnores(root);
        Map<String, Boolean> ignoredFolders = new HashMap<>();
        Changes changes = new Changes();
        for (Map.Entry<String, SyncEntry> changed : now.entrySet()) {
            String path = changed.getKey();
            SyncEntry entry = changed.getValue();
            if (done.contains(path) || entry.same(container.get(path))) {
                continue;
            }
            boolean folder = entry.type() == SyncEntry.Type.DIR;
            if (ignored(path, folder, ignores, ignoredFolders)) {
                if (folder) {
                    pruned.add(path);
                }
            } else if (isProtected(path, entry, host, absent)) {
                changes.protectedPaths.add(path);
            } else if (folder) {
                changes.folders.add(path);
            } else if (entry.type() == SyncEntry.Type.FILE && entry.size() > limits.maxFileBytes()) {
                changes.oversized.add(path);
            } else if (isGitignore(path) && entry.type() == SyncEntry.Type.FILE) {
                changes.gitignores.add(path);
            } else {
                changes.files.add(path);
            }
        }
        for (Map.Entry<String, SyncEntry> had : container.entrySet()) {
            String path = had.getKey();
            if (now.containsKey(path)
                    || ignored(path, had.getValue().type() == SyncEntry.Type.DIR, ignores, ignoredFolders)) {
                continue;
            }
            if (isProtected(path, null, host, absent)) {
                changes.protectedPaths.add(path);
            } else if (host.containsKey(path)) {
                changes.removed.add(path);
            }
        }
        return changes;
    }

    private void copyBack(
            Changes changes,
            ContainerFiles files,
            Set<String> paths,
            TreeMap<String, SyncEntry> now,
            Set<String> written,
            List<String> problems)
            throws IOException {
        if (paths.isEmpty()) {
            return;
        }
        withinLimit(paths, now);
        files.fetch(root, paths, limits.maxTotalBytes(), (path, entry, content) -> {
            if (conflict(changes, path).isPresent()) {
                return;
            }
            Optional<String> unsafe;
            try {
                if (entry.isSymbolicLink()) {
                    unsafe = HostFiles.write(root, path, null, entry.getLinkName(), 0, null);
                } else if (plainFile(entry) && entry.getSize() <= limits.maxFileBytes()) {
                    unsafe = HostFiles.write(
                            root, path, content, null, entry.getMode() & 0777, ContainerFiles.modified(entry));
                } else {
                    log.warn("the sandbox container sent {} as {}; skipped", path, kind(entry));
                    return;
                }
            } catch (DirectoryNotEmptyException held) {
                // A file appeared in the folder since conflict() looked: it is the host's, and so is the folder.
                changes.conflicts.put(path, "a folder there holds files that were not synced");
                return;
            }
            report(problems, path, unsafe);
            written.add(path);
        });
    }

    private static String kind(TarArchiveEntry entry) {
        return entry.isDirectory()
                ? "a folder"
                : plainFile(entry) ? "a file of " + entry.getSize() + " bytes" : "a special file";
    }

    /**
     * Refuses a copy back of {@code paths} larger in all than the total size limit, the same limit as copying in,
     * before anything is written or removed: nothing changes on the host rather than part of it.
     */
    private void withinLimit(Set<String> paths, TreeMap<String, SyncEntry> now) throws IOException {
        long total = paths.stream()
                .map(now::get)
                .filter(entry ->
                        entry != null && entry.type() == SyncEntry.Type.FILE && entry.size() <= limits.maxFileBytes())
                .mapToLong(SyncEntry::size)
                .sum();
        if (total > limits.maxTotalBytes()) {
            throw new IOException("the files the command changed in " + root + " add up to " + size(total)
                    + ", more than the limit of " + size(limits.maxTotalBytes()) + "; none were copied back and they"
                    + " stay in the sandbox (raise " + SyncLimits.MAX_TOTAL + " or remove large files there)");
        }
    }

    private static void report(List<String> problems, String path, Optional<String> unsafe) {
        unsafe.ifPresent(reason -> problems.add(path + " (" + reason + ")"));
    }

    private List<CopyBackNotice> notices(Changes changes, List<String> problems) {
        List<CopyBackNotice> notices = new ArrayList<>();
        if (!changes.protectedPaths.isEmpty()) {
            String paths = shown(changes.protectedPaths);
            notices.add(new CopyBackNotice(
                    "The command changed protected paths in the sandbox (" + paths + "); the changes were not copied"
                            + " to the user's machine and are undone before the next command, since what is written"
                            + " there (git hooks and config, editor and Dockhand settings) runs later on the user's"
                            + " machine. Do not work around it: tell the user, who can allow a path with"
                            + " --allow-protected-path PATH.",
                    "A command changed protected paths in the sandbox (" + paths + "); the changes were not copied"
                            + " to this machine, since what is written there (git hooks and config, editor and"
                            + " Dockhand settings) runs here later. To let a path through, start Dockhand with"
                            + " --allow-protected-path PATH."));
        }
        if (!changes.oversized.isEmpty()) {
            String paths = shown(changes.oversized);
            String limit = size(limits.maxFileBytes());
            notices.add(new CopyBackNotice(
                    "Files larger than " + limit + " stay in the sandbox and were not copied to the user's machine: "
                            + paths + ".",
                    "Files larger than " + limit + " were not copied to this machine and went with the sandbox: "
                            + paths + "."));
        }
        if (!changes.conflicts.isEmpty()) {
            List<String> named = new ArrayList<>();
            changes.conflicts.forEach((path, why) -> named.add(path + " (" + why + ")"));
            String paths = String.join(", ", named.subList(0, Math.min(12, named.size())))
                    + (named.size() > 12 ? " and " + (named.size() - 12) + " more" : "");
            notices.add(new CopyBackNotice(
                    "Left as it is on the user's machine, since it changed there too or was never synced, so the"
                            + " command's version stays only in the sandbox: " + paths + ".",
                    "Left as it is on this machine, since it changed here too or was never synced, so the command's"
                            + " version went with the sandbox: " + paths + "."));
        }
        if (!problems.isEmpty()) {
            String paths = String.join(", ", problems.subList(0, Math.min(12, problems.size())));
            notices.add(new CopyBackNotice(
                    "Not copied to the user's machine, since a folder on the way there is a link or not a folder: "
                            + paths + ".",
                    "Not copied to this machine, since a folder on the way there is a link or not a folder: " + paths
                            + "."));
        }
        return notices;
    }

    private static String shown(Set<String> paths) {
        List<String> all = List.copyOf(paths);
        return all.size() <= 12
                ? String.join(", ", all)
                : String.join(", ", all.subList(0, 12)) + " and " + (all.size() - 12) + " more";
    }

    /** Whether {@code path}, or a folder it lies in, is ignored; folders' answers are kept in {@code folders}. */
    private static boolean ignored(String path, boolean folder, SyncIgnores ignores, Map<String, Boolean> folders) {
        int slash = path.lastIndexOf('/');
        if (slash > 0) {
            String parent = path.substring(0, slash);
            Boolean parentIgnored = folders.get(parent);
            if (parentIgnored == null) {
                parentIgnored = ignored(parent, true, ignores, folders);
                folders.put(parent, parentIgnored);
            }
            if (parentIgnored) {
                return true;
            }
        }
        return ignores.ignored(path, folder);
    }

    /**
     * Whether a command must not change {@code path} on the host, the container having it as {@code now} (null when
     * it removed it) and the host as {@code synced} recorded: the rules protect it by its name, whether the scan found
     * it or not (a new {@code .mcp.json}, a {@code pkg/.claude}, a submodule's hooks prepared in {@code .git/modules});
     * or it is, or lies under, a path the mount transport mounts read-only (an existing protected path, where a
     * protected link leads, a protected folder that was missing, or one that must stay absent), and not under an
     * allowed one; or it lies in a {@code .git} file or folder the host did not have as a folder (a new one anywhere,
     * a case variant of one, a {@code gitdir:} redirect); or the change removes a path in a git folder, or a git
     * folder or a folder above one, or gives it another type, or makes a link in a git folder. A git folder found under
     * another name ({@code .bare}, which a {@code .git} file's {@code gitdir:} line names) counts as one: its hooks
     * and config are read-only paths of the layout, and the rest of it is kept as the rest of {@code .git} is. Paths are compared
     * without case, as ProtectedPaths compares: on a case-insensitive disk {@code .GIT/hooks/x} is git's.
     */
    boolean isProtected(String path, SyncEntry now, Map<String, SyncEntry> synced) {
        return isProtected(path, now, synced, absent());
    }

    /**
     * The paths of this root that must stay absent, looked up once for a whole copy back; and the folders that could
     * not be looked at whole for them (a {@code .git/modules} holding more folders than a look counts), whose every
     * path is then kept from the host as one that must stay absent would be: what cannot be checked is not copied back.
     */
    private List<Path> absent() {
        List<Path> absent = new ArrayList<>();
        for (ProtectedLayout layout : layouts.get()) {
            if (layout.root().equals(root)) {
                ProtectedLayout.Absent now = layout.absent();
                absent.addAll(now.paths());
                now.unchecked().forEach(unchecked -> absent.add(unchecked.path()));
            }
        }
        return absent;
    }

    private boolean isProtected(String path, SyncEntry now, Map<String, SyncEntry> synced, List<Path> absent) {
        String lower = path.toLowerCase(Locale.ROOT);
        SyncEntry had = synced.get(path);
        boolean removedOrRetyped = now == null || (had != null && had.type() != now.type());
        for (ProtectedLayout layout : layouts.get()) {
            if (!layout.root().equals(root)) {
                continue;
            }
            if (layout.writable().stream().anyMatch(place -> under(lower, place))) {
                return false;
            }
            // By name first: what the scan found is below. A git folder and the folders above it are mount points in
            // the mount transport: they cannot be removed or replaced (by a .git file that sends git elsewhere, say).
            if (layout.rules().check(path).isPresent()
                    || (removedOrRetyped
                            && layout.pinned().stream().anyMatch(place -> lower.equals(lowerRelative(place))))
                    || layout.readOnly().stream().anyMatch(place -> under(lower, place))
                    || layout.missing().stream().anyMatch(place -> under(lower, place))
                    || absent.stream().anyMatch(place -> under(lower, place))) {
                return true;
            }
        }
        int git = gitEnd(path);
        if (git < 0) {
            // A git folder found under another name (.bare for a .git file reading gitdir: ./.bare) is kept as .git.
            return inGitFolderElsewhere(lower) && (removedOrRetyped || now.type() == SyncEntry.Type.LINK);
        }
        SyncEntry gitFolder = synced.get(path.substring(0, git));
        if (gitFolder == null || gitFolder.type() != SyncEntry.Type.DIR) {
            return true;
        }
        // In a git folder the host has, a command may write (a commit does) but not remove or retype, nor make a link:
        // git makes none there, and the host's git would follow one (.git/modules/lib -> ../../x) to hooks anywhere.
        return removedOrRetyped || now.type() == SyncEntry.Type.LINK;
    }

    /** Whether {@code lower} lies in a git folder of this root that git finds through a .git file, link or commondir. */
    private boolean inGitFolderElsewhere(String lower) {
        for (ProtectedLayout layout : layouts.get()) {
            if (layout.root().equals(root)
                    && layout.gitFolders().stream()
                            .anyMatch(folder ->
                                    !folder.equals(root) && folder.startsWith(root) && under(lower, folder))) {
                return true;
            }
        }
        return false;
    }

    private String lowerRelative(Path place) {
        return HostFiles.relative(root, place).toLowerCase(Locale.ROOT);
    }

    private boolean under(String lower, Path place) {
        String protectedPath = lowerRelative(place);
        return protectedPath.isEmpty() || lower.equals(protectedPath) || lower.startsWith(protectedPath + "/");
    }

    /** The length of {@code path}'s part up to its first {@code .git} name (any case), or -1 when it has none. */
    static int gitEnd(String path) {
        int start = 0;
        for (String name : path.split("/", -1)) {
            start += name.length();
            if (name.toLowerCase(Locale.ROOT).equals(".git")) {
                return start;
            }
            start++;
        }
        return -1;
    }

    /**
     * Whether a tar entry is a regular file's content: commons-compress calls hard links and character and block
     * devices files too, and none of them may become one on the host.
     */
    static boolean plainFile(TarArchiveEntry entry) {
        return entry.isFile()
                && !entry.isLink()
                && !entry.isSymbolicLink()
                && !entry.isCharacterDevice()
                && !entry.isBlockDevice()
                && !entry.isFIFO();
    }

    private static boolean isGitignore(String path) {
        return path.equals(GITIGNORE) || path.endsWith("/" + GITIGNORE);
    }

    private static void removeTree(TreeMap<String, SyncEntry> entries, String path) {
        entries.remove(path);
        entries.subMap(path + "/", true, path + "0", false).clear();
    }

    /** A size as people write it: {@code 100 MiB}, {@code 1 KiB}, {@code 10 bytes}. */
    static String size(long bytes) {
        if (bytes >= 1 << 20) {
            return (bytes >> 20) + " MiB";
        }
        return bytes >= 1 << 10 ? (bytes >> 10) + " KiB" : bytes + " bytes";
    }
}
