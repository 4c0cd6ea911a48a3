package dev.dockhand.sandbox;

import dev.dockhand.core.glob.IgnoreFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which paths of a root the sync transport leaves out, by git's rules: the {@code .gitignore} of each folder from the
 * path's own up to the root (the nearest that decides wins), then {@code .git/info/exclude}. The rules are read from the
 * host's files, once each, as paths are asked about; a {@code .gitignore} that is a link is not read (what it points at
 * is not the workspace's). Nothing inside a git folder is ever left out: git reads no ignore rules there, and a
 * repository missing the objects a rule matched would be broken in the container. Core's {@link IgnoreFile} reads and
 * matches the rules, in time that grows with the path's length times the rule's, whatever a repository's rule says.
 */
final class SyncIgnores {
    private static final Logger log = LoggerFactory.getLogger(SyncIgnores.class);

    private final Path root;
    private final Map<String, IgnoreFile> byFolder = new HashMap<>();
    private final IgnoreFile exclude;

    SyncIgnores(Path root) {
        this.root = root;
        this.exclude = read(root.resolve(".git/info/exclude"));
    }

    /** Whether {@code path} (relative to the root, '/'-separated) is left out, its folders not considered. */
    boolean ignored(String path, boolean folder) {
        if (insideGit(path)) {
            return false;
        }
        return IgnoreFile.ignored(path, folder, this::rules, exclude);
    }

    /** Whether a folder on the way to {@code path}, or {@code path} itself, is a git folder. */
    static boolean insideGit(String path) {
        return path.equals(".git") || path.startsWith(".git/") || path.contains("/.git/") || path.endsWith("/.git");
    }

    private IgnoreFile rules(String folder) {
        return byFolder.computeIfAbsent(
                folder, name -> read(root.resolve(name.isEmpty() ? ".gitignore" : name + "/.gitignore")));
    }

    private static IgnoreFile read(Path file) {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return IgnoreFile.EMPTY;
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return IgnoreFile.read(in);
        } catch (IOException e) {
            log.warn("could not read {}; its rules are not applied to the sandbox's copy", file, e);
            return IgnoreFile.EMPTY;
        }
    }
}
