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
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The fingerprint of a root's protected paths that tells, without a sandbox, that a command changed one: the paths a
 * scan found (see {@link ProtectedLayout}), and every path the rules name now, found by one walk of the root, so that
 * one created since the scan (a {@code pkg/.claude} in a folder that had none, an {@code .mcp.json}, a hooks folder
 * prepared for a submodule in {@code .git/modules}) is seen too. The walk does not follow links, enters a protected
 * folder only to list it, leaves out git's object, ref and log folders, and stops after as many folders as the scan
 * (whose warning says when it stopped).
 */
final class ProtectedFingerprint {
    /** Most entries of one protected folder that a fingerprint lists. */
    private static final int MAX_ENTRIES = 2_000;

    /** Files larger than this are fingerprinted by size and time only. */
    private static final long HASHED_BYTES = 1 << 20;

    /** A git folder's own folders that hold nothing git or another program runs: not walked. */
    private static final Set<String> GIT_DATA = Set.of("objects", "refs", "logs", "lfs");

    private ProtectedFingerprint() {}

    /**
     * Relative path to its type, size, time and (for small files) content hash, for each of {@code known} (absent
     * ones as such, a folder's entries listed) and each path under {@code root} that {@code rules} protect, and each
     * link inside a git folder (git makes none; one there can lead git to hooks anywhere).
     */
    static Map<String, String> of(Path root, ProtectedPaths rules, List<Path> known, int maxFolders) {
        Map<String, String> prints = new TreeMap<>();
        for (Path path : known) {
            String name = ProtectedPaths.relative(root, path);
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                prints.put(name, "absent");
            } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                listed(root, path, prints);
            } else {
                prints.put(name, print(path));
            }
        }
        try {
            Files.walkFileTree(
                    root,
                    EnumSet.noneOf(FileVisitOption.class),
                    Integer.MAX_VALUE,
                    new Named(root, rules, prints, maxFolders));
        } catch (IOException | RuntimeException e) {
            // What the walk had found stays; the rest is as unknown before the command as after it.
            LoggerFactory.getLogger(ProtectedFingerprint.class).error("could not walk {} for protected paths", root, e);
        }
        return prints;
    }

    /** The entries of the protected folder {@code folder}, up to {@link #MAX_ENTRIES}. */
    private static void listed(Path root, Path folder, Map<String, String> prints) {
        try (Stream<Path> entries = Files.walk(folder)) {
            entries.limit(MAX_ENTRIES).forEach(entry -> prints.put(ProtectedPaths.relative(root, entry), print(entry)));
        } catch (IOException | RuntimeException e) {
            prints.put(ProtectedPaths.relative(root, folder), "unreadable");
        }
    }

    /**
     * The walk that finds the paths the rules name, wherever they are. A name is put to the rules only when it could be
     * protected (a protected folder's or file's name, a path in a git folder, a path the user added), so that the walk
     * of a large tree costs little more than listing it.
     */
    private static final class Named extends SimpleFileVisitor<Path> {
        private final Path root;
        private final ProtectedPaths rules;
        private final Map<String, String> prints;
        private final int maxFolders;
        private int folders;
        /** How many git folders the walk is in. */
        private int inGit;

        Named(Path root, ProtectedPaths rules, Map<String, String> prints, int maxFolders) {
            this.root = root;
            this.rules = rules;
            this.prints = prints;
            this.maxFolders = maxFolders;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            if (++folders > maxFolders) {
                return FileVisitResult.TERMINATE;
            }
            if (dir.equals(root)) {
                return FileVisitResult.CONTINUE;
            }
            String folder = lower(dir);
            if (folder.equals(".git")) {
                // The folder itself (a new repository is worth telling), then what the rules name in it.
                prints.put(ProtectedPaths.relative(root, dir), "folder");
                inGit++;
                return FileVisitResult.CONTINUE;
            }
            if (GIT_DATA.contains(folder) && lower(dir.getParent()).equals(".git")) {
                return FileVisitResult.SKIP_SUBTREE;
            }
            if (inGit > 0
                    || ProtectedPaths.FOLDERS.contains(folder)
                    || !rules.added().isEmpty()) {
                String name = ProtectedPaths.relative(root, dir);
                if (rules.isEntry(name)) {
                    // A protected folder the scan found is listed already, with the known paths.
                    if (!prints.containsKey(name)) {
                        listed(root, dir, prints);
                    }
                    return FileVisitResult.SKIP_SUBTREE;
                }
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) {
            if (!dir.equals(root) && lower(dir).equals(".git")) {
                inGit--;
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String lower = lower(file);
            boolean named = lower.equals(".git")
                    || ProtectedPaths.FOLDERS.contains(lower)
                    || ProtectedPaths.HOOK_MANAGER_FILES.contains(lower)
                    || ProtectedPaths.TOOL_FILES.contains(lower);
            if (named || inGit > 0 || !rules.added().isEmpty()) {
                String name = ProtectedPaths.relative(root, file);
                if (rules.check(name).isPresent() || (attributes.isSymbolicLink() && inGit > 0)) {
                    prints.computeIfAbsent(name, known -> print(file));
                }
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
        }

        private static String lower(Path path) {
            Path name = path.getFileName();
            return name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        }
    }

    /** What differs between two fingerprints, one phrase per path, like {@code .git/hooks/pre-commit (created)}. */
    static List<String> changes(Map<String, String> before, Map<String, String> after) {
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
