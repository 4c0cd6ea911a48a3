package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * The {@code modules} folder of a git folder a scan met, where git keeps its submodules' git folders: a folder prepared
 * there for a submodule is the one {@code git submodule update --init} takes on the host, hooks and config and all.
 * {@code git} is the git folder on disk, {@code named} the name the rules judge it by ({@code .git}, or a {@code .git}
 * link's place), and {@code links} the links its {@code modules} folder held at the scan.
 */
record GitModules(Path git, String named, Set<Path> links) {
    /**
     * What a look into the {@code modules} folder found: the paths that appeared since the scan, sorted; how many
     * folders it counted; and, when it could not look at all of it, why (then {@code paths} is only part of the answer).
     */
    record Look(List<Path> paths, int folders, Optional<String> unchecked) {}

    /**
     * What has appeared in its {@code modules} folder since the scan: each protected hooks folder or config file that is
     * not {@code known} (read-only since the scan), and each link the scan did not find there. It walks the folder,
     * objects and all, so that no submodule's name can hide one, and looks at every entry; it stops after {@code
     * maxFolders} folders, and says so, as it does when a folder cannot be read. A loose-object folder (two hex
     * characters in an {@code objects} folder) is not counted while it holds only files, so that a repository's
     * objects, up to 256 such folders each, do not bring it near the limit; its files are looked at all the same (a
     * submodule named {@code x/objects/ab} takes its {@code config} from there), and one that holds a folder counts.
     */
    Look appeared(ProtectedPaths rules, List<Path> known, int maxFolders) {
        Path modules = git.resolve("modules");
        if (Files.isSymbolicLink(modules)) {
            return new Look(links.contains(modules) ? List.of() : List.of(modules), 0, Optional.empty());
        }
        if (!Files.isDirectory(modules, LinkOption.NOFOLLOW_LINKS)) {
            return new Look(List.of(), 0, Optional.empty());
        }
        Walk walk = new Walk(modules, rules, known, maxFolders);
        try {
            Files.walkFileTree(modules, walk);
        } catch (IOException | RuntimeException e) {
            // Logged once, with why, by ProtectedLayout#absent; this says what failed, at each look.
            LoggerFactory.getLogger(GitModules.class).debug("could not look into {}", modules, e);
            walk.unchecked = Optional.of("it could not be read to the end");
        }
        // In the order of their names, whatever order the folder lists them in.
        walk.found.sort(null);
        return new Look(List.copyOf(walk.found), walk.folders, walk.unchecked);
    }

    /** The walk of a {@code modules} folder. */
    private final class Walk extends SimpleFileVisitor<Path> {
        private final Path modules;
        private final ProtectedPaths rules;
        private final List<Path> known;
        private final int maxFolders;
        private final List<Path> found = new ArrayList<>();
        private int folders;
        /** The loose-object folder last counted because it holds a folder. */
        private Path countedObjects;

        private Optional<String> unchecked = Optional.empty();

        Walk(Path modules, ProtectedPaths rules, List<Path> known, int maxFolders) {
            this.modules = modules;
            this.rules = rules;
            this.known = known;
            this.maxFolders = maxFolders;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            if (!looseObjects(dir)) {
                folders++;
                Path parent = dir.getParent();
                // A walk is depth first: a loose-object folder's sub-folders come one after the other.
                if (looseObjects(parent) && !parent.equals(countedObjects)) {
                    countedObjects = parent;
                    folders++;
                }
                if (folders > maxFolders) {
                    unchecked = Optional.of(String.format(Locale.ROOT, "it holds more than %,d folders", maxFolders));
                    return FileVisitResult.TERMINATE;
                }
            }
            if (!isEntry(dir)) {
                return FileVisitResult.CONTINUE;
            }
            if (!known.contains(dir)) {
                found.add(dir);
            }
            return FileVisitResult.SKIP_SUBTREE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            boolean appeared =
                    attributes.isSymbolicLink() ? !links.contains(file) : isEntry(file) && !known.contains(file);
            if (appeared) {
                found.add(file);
            }
            return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
            if (e instanceof NoSuchFileException) {
                // Gone since its folder was listed (git packed its objects): nothing there to look at.
                return FileVisitResult.CONTINUE;
            }
            // A folder that cannot be listed (chmod 111) can still be entered by name: git would find hooks in it.
            LoggerFactory.getLogger(GitModules.class).debug("could not look into {}", file, e);
            unchecked = Optional.of(ProtectedPaths.relative(modules, file) + " in it could not be read");
            return FileVisitResult.TERMINATE;
        }

        /** Whether {@code path} is a protected entry of its own: a hooks folder, a config file. */
        private boolean isEntry(Path path) {
            return rules.isEntry(named + "/" + ProtectedPaths.relative(git, path));
        }

        /** Whether {@code dir} is named as git names a loose-object folder: two hex digits, in an {@code objects}. */
        private boolean looseObjects(Path dir) {
            Path name = dir.getFileName();
            Path parent = dir.getParent();
            if (name == null || parent == null || parent.getFileName() == null) {
                return false;
            }
            String folder = name.toString();
            return folder.length() == 2
                    && hex(folder.charAt(0))
                    && hex(folder.charAt(1))
                    && parent.getFileName().toString().equals("objects");
        }

        private static boolean hex(char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        }
    }
}
