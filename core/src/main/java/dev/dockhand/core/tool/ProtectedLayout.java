package dev.dockhand.core.tool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * Where a workspace's protected paths are on disk, found by one walk: what the Docker sandbox mounts read-only, the
 * git folders it pins in place (a mount point cannot be renamed or removed, so {@code mv .git .old} and a fresh
 * {@code .git} cannot swap the protection out), the protected folders missing at the top that it mounts empty
 * placeholders on (creating one there is the attack), and allowed paths under a read-only folder that stay
 * writable. It also fingerprints them, so a command that changed one anyway (without a sandbox) is reported.
 *
 * <p>The walk does not follow links, does not enter a git folder beyond what it protects, and stops after
 * {@link #MAX_FOLDERS} folders (a repository nested deeper than that in a huge tree is left to the file tools'
 * approval and the fingerprint of what was found).
 */
public final class ProtectedLayout {
    /** Most folders one scan visits. */
    static final int MAX_FOLDERS = 200_000;

    /** Most entries of one protected folder that a fingerprint lists. */
    private static final int MAX_ENTRIES = 2_000;

    /** Files larger than this are fingerprinted by size and time only. */
    private static final long HASHED_BYTES = 1 << 20;

    private final Path root;
    private final List<Path> readOnly;
    private final List<Path> pinned;
    private final List<Path> missing;
    private final List<Path> absent;
    private final List<Path> writable;

    private ProtectedLayout(Path root, Scan scan) {
        this.root = root;
        this.readOnly = List.copyOf(scan.readOnly);
        this.pinned = List.copyOf(scan.pinned);
        this.missing = List.copyOf(scan.missing);
        this.absent = List.copyOf(scan.absent);
        this.writable = List.copyOf(scan.writable);
    }

    /** Existing protected paths, each to be made read-only. */
    public List<Path> readOnly() {
        return readOnly;
    }

    /** The git folders that hold protected paths, to be pinned in place. */
    public List<Path> pinned() {
        return pinned;
    }

    /**
     * Protected folders that do not exist yet, whose creation must be kept out too: an empty folder in their place
     * does no harm (git skips an empty {@code .git} and looks further up).
     */
    public List<Path> missing() {
        return missing;
    }

    /**
     * Protected paths that do not exist and must stay so, where an empty folder would break git (a git folder's
     * {@code commondir}, or a place its config names): a command that creates one has it removed.
     */
    public List<Path> absent() {
        return absent;
    }

    /** Allowed paths that lie under a read-only path and must stay writable. */
    public List<Path> writable() {
        return writable;
    }

    /**
     * The layouts of {@code roots}, scanned at the first call and kept: the Docker sandbox needs them when its
     * container starts, and the check after each command without a sandbox needs them too. A root that cannot be
     * scanned has an empty layout, and the failure is logged.
     */
    public static Supplier<List<ProtectedLayout>> lazily(List<Path> roots, ProtectedPaths rules) {
        return new Supplier<>() {
            private List<ProtectedLayout> layouts;

            @Override
            public synchronized List<ProtectedLayout> get() {
                if (layouts == null) {
                    List<ProtectedLayout> scanned = new ArrayList<>();
                    for (Path root : roots) {
                        try {
                            scanned.add(scan(root, rules));
                        } catch (IOException | RuntimeException e) {
                            LoggerFactory.getLogger(ProtectedLayout.class)
                                    .error("could not scan {} for protected paths", root, e);
                            scanned.add(new ProtectedLayout(root, new Scan(root, rules)));
                        }
                    }
                    layouts = List.copyOf(scanned);
                }
                return layouts;
            }
        };
    }

    /** The root this layout was scanned from. */
    public Path root() {
        return root;
    }

    /** Scans {@code root} (a real path) for the paths {@code rules} protect. */
    public static ProtectedLayout scan(Path root, ProtectedPaths rules) throws IOException {
        Scan scan = new Scan(root, rules);
        Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, scan);
        for (String folder : ProtectedPaths.FOLDERS) {
            scan.ifMissing(root.resolve(folder));
        }
        Path git = root.resolve(".git");
        if (!Files.isDirectory(git, LinkOption.NOFOLLOW_LINKS)) {
            // No repository here yet: one made in the sandbox would be git's for this folder on the host.
            scan.ifMissing(git);
        }
        for (String entry : rules.added()) {
            scan.protect(root.resolve(entry));
        }
        for (String entry : rules.allowed()) {
            Path allowed = root.resolve(entry);
            if (Files.exists(allowed, LinkOption.NOFOLLOW_LINKS)
                    && scan.readOnly.stream().anyMatch(path -> allowed.startsWith(path) && !allowed.equals(path))) {
                scan.writable.add(allowed);
            }
        }
        return new ProtectedLayout(root, scan);
    }

    /** The walk: each git folder and protected folder it meets, recorded and not entered further. */
    private static final class Scan extends SimpleFileVisitor<Path> {
        private final Path root;
        private final ProtectedPaths rules;
        private final List<Path> readOnly = new ArrayList<>();
        private final List<Path> pinned = new ArrayList<>();
        private final List<Path> missing = new ArrayList<>();
        private final List<Path> absent = new ArrayList<>();
        private final List<Path> writable = new ArrayList<>();
        private int folders;

        Scan(Path root, ProtectedPaths rules) {
            this.root = root;
            this.rules = rules;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
            if (++folders > MAX_FOLDERS) {
                return FileVisitResult.TERMINATE;
            }
            // Without case, as ProtectedPaths compares: on a case-insensitive file system .Git is git's folder.
            String name = dir.equals(root) ? "" : dir.getFileName().toString().toLowerCase(Locale.ROOT);
            if (name.equals(".git")) {
                pinRepository(dir);
                gitFolder(dir);
                return FileVisitResult.SKIP_SUBTREE;
            }
            if (ProtectedPaths.FOLDERS.contains(name)) {
                protect(dir);
                return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            // A .git file points git at another folder (submodules, linked worktrees): it is protected whole.
            if ((name.equals(".git") && !attributes.isSymbolicLink())
                    || ProtectedPaths.HOOK_MANAGER_FILES.contains(name)
                    || ProtectedPaths.AGENT_FILES.contains(name)) {
                protect(file);
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
        }

        /**
         * A git folder, and every folder from the root down to its work tree, mounted onto themselves: a mount point
         * cannot be renamed, so neither the git folder nor the folders above it can be moved away and replaced by a
         * writable copy.
         */
        private void pinRepository(Path git) {
            for (Path folder = git; folder != null && !folder.equals(root); folder = folder.getParent()) {
                if (!pinned.contains(folder)) {
                    pinned.add(folder);
                }
            }
        }

        /**
         * A git folder's protected entries, those of its submodules' and worktrees' folders, and the places its config
         * points git at.
         */
        private void gitFolder(Path git) throws IOException {
            // A repository without a hooks folder (some templates make none) would take one created there.
            ifMissing(git.resolve("hooks"));
            if (!Files.exists(git.resolve("commondir"), LinkOption.NOFOLLOW_LINKS)
                    && rules.check(relative(git.resolve("commondir"))).isPresent()) {
                absent.add(git.resolve("commondir"));
            }
            for (Path place : GitPointers.of(git, git.getParent(), root)) {
                if (rules.allowed().stream().noneMatch(entry -> place.startsWith(root.resolve(entry)))) {
                    if (Files.exists(place, LinkOption.NOFOLLOW_LINKS)) {
                        readOnly.add(place);
                    } else {
                        absent.add(place);
                    }
                }
            }
            List<Path> candidates = new ArrayList<>();
            candidates.add(git.resolve("hooks"));
            candidates.add(git.resolve("config"));
            candidates.add(git.resolve("config.worktree"));
            candidates.add(git.resolve("commondir"));
            for (String nested : List.of("modules", "worktrees")) {
                Path folder = git.resolve(nested);
                if (Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                    try (Stream<Path> walk = Files.walk(folder, 8)) {
                        walk.filter(path -> !Files.isSymbolicLink(path)).forEach(candidates::add);
                    }
                }
            }
            for (Path candidate : candidates) {
                Optional<ProtectedPaths.Protection> protection = rules.check(relative(candidate));
                if (protection.isPresent()
                        && protection.get().entry().equals(relative(candidate))
                        && Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                    protect(candidate);
                }
            }
        }

        void protect(Path path) {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)
                    && rules.check(relative(path)).isPresent()
                    && !readOnly.contains(path)) {
                readOnly.add(path);
            }
        }

        void ifMissing(Path folder) {
            if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)
                    && rules.check(relative(folder)).isPresent()) {
                missing.add(folder);
            }
        }

        private String relative(Path path) {
            return root.relativize(path).toString().replace('\\', '/');
        }
    }

    /**
     * A fingerprint of every protected path found, and of each missing one's absence: relative path to its type,
     * size, time and (for small files) content hash, listing a folder's entries.
     */
    public Map<String, String> fingerprint() {
        Map<String, String> prints = new TreeMap<>();
        List<Path> all = new ArrayList<>(readOnly);
        all.addAll(missing);
        all.addAll(absent);
        for (Path path : all) {
            String name = root.relativize(path).toString().replace('\\', '/');
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                prints.put(name, "absent");
            } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> entries = Files.walk(path)) {
                    entries.limit(MAX_ENTRIES)
                            .forEach(entry ->
                                    prints.put(root.relativize(entry).toString().replace('\\', '/'), print(entry)));
                } catch (IOException | RuntimeException e) {
                    prints.put(name, "unreadable");
                }
            } else {
                prints.put(name, print(path));
            }
        }
        return prints;
    }

    /**
     * What differs between two fingerprints, one phrase per path, like {@code .git/hooks/pre-commit (created)}.
     */
    public static List<String> changes(Map<String, String> before, Map<String, String> after) {
        List<String> changes = new ArrayList<>();
        Map<String, String> all = new TreeMap<>(before);
        after.forEach(all::putIfAbsent);
        for (String path : all.keySet()) {
            String was = before.getOrDefault(path, "absent");
            String now = after.getOrDefault(path, "absent");
            if (was.equals(now)) {
                continue;
            }
            String what = was.equals("absent") ? "created" : now.equals("absent") ? "removed" : "changed";
            changes.add(path + " (" + what + ")");
        }
        return changes;
    }

    private static String print(Path path) {
        try {
            BasicFileAttributes attributes =
                    Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isDirectory()) {
                // Its entries are printed one by one; its own time changes with every one of them.
                return "folder";
            }
            String kind = attributes.isSymbolicLink() ? "link" : "file";
            String print = kind + " " + attributes.size() + " "
                    + attributes.lastModifiedTime().toMillis();
            if (attributes.isRegularFile() && attributes.size() <= HASHED_BYTES) {
                print += " " + hash(path);
            } else if (attributes.isSymbolicLink()) {
                print += " " + Files.readSymbolicLink(path);
            }
            return print;
        } catch (IOException e) {
            return "unreadable";
        }
    }

    private static String hash(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                digest.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
