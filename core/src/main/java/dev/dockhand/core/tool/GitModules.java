package dev.dockhand.core.tool;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
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
     * What has appeared in its {@code modules} folder since the scan, sorted: each protected hooks folder or config
     * file that is not {@code known} (read-only since the scan), and each link the scan did not find there. It walks
     * the folder, objects and all, which is cheap for packed repositories, so that no submodule's name can hide one.
     */
    List<Path> appeared(ProtectedPaths rules, List<Path> known) {
        Path modules = git.resolve("modules");
        if (Files.isSymbolicLink(modules)) {
            return links.contains(modules) ? List.of() : List.of(modules);
        }
        if (!Files.isDirectory(modules, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(modules, new SimpleFileVisitor<>() {
                private int folders;

                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    if (++folders > ProtectedLayout.MAX_FOLDERS) {
                        return FileVisitResult.TERMINATE;
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
                    boolean appeared = attributes.isSymbolicLink()
                            ? !links.contains(file)
                            : isEntry(file) && !known.contains(file);
                    if (appeared) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                /** Whether {@code path} is a protected entry of its own: a hooks folder, a config file. */
                private boolean isEntry(Path path) {
                    String name = named + "/" + git.relativize(path).toString().replace('\\', '/');
                    return rules.check(name)
                            .filter(protection -> protection.entry().equals(name))
                            .isPresent();
                }
            });
        } catch (IOException e) {
            LoggerFactory.getLogger(ProtectedLayout.class).error("could not look into {}", modules, e);
        }
        // In the order of their names, whatever order the folder lists them in.
        found.sort(null);
        return found;
    }
}
