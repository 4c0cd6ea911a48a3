package dev.dockhand.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.ignore.IgnoreNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which paths of a root the sync transport leaves out, by git's rules: the {@code .gitignore} of each folder from the
 * path's own up to the root (the nearest that decides wins), then {@code .git/info/exclude}. The rules are read from the
 * host's files, once each, as paths are asked about; a {@code .gitignore} that is a link is not read (what it points at
 * is not the workspace's). Nothing inside a git folder is ever left out: git reads no ignore rules there, and a
 * repository missing the objects a rule matched would be broken in the container.
 */
final class SyncIgnores {
    private static final Logger log = LoggerFactory.getLogger(SyncIgnores.class);
    private static final IgnoreNode NONE = new IgnoreNode();

    private final Path root;
    private final Map<String, IgnoreNode> byFolder = new HashMap<>();
    private final IgnoreNode exclude;

    SyncIgnores(Path root) {
        this.root = root;
        this.exclude = read(root.resolve(".git/info/exclude"));
    }

    /** Whether {@code path} (relative to the root, '/'-separated) is left out, its folders not considered. */
    boolean ignored(String path, boolean folder) {
        if (insideGit(path)) {
            return false;
        }
        int slash = path.length();
        while (slash > 0) {
            slash = path.lastIndexOf('/', slash - 1);
            String base = slash < 0 ? "" : path.substring(0, slash);
            Boolean decided = rules(base).checkIgnored(path.substring(slash + 1), folder);
            if (decided != null) {
                return decided;
            }
            if (slash < 0) {
                break;
            }
        }
        Boolean excluded = exclude.checkIgnored(path, folder);
        return excluded != null && excluded;
    }

    /** Whether a folder on the way to {@code path}, or {@code path} itself, is a git folder. */
    static boolean insideGit(String path) {
        return path.equals(".git") || path.startsWith(".git/") || path.contains("/.git/") || path.endsWith("/.git");
    }

    private IgnoreNode rules(String folder) {
        return byFolder.computeIfAbsent(
                folder, name -> read(root.resolve(name.isEmpty() ? ".gitignore" : name + "/.gitignore")));
    }

    private static IgnoreNode read(Path file) {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return NONE;
        }
        IgnoreNode node = new IgnoreNode();
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            node.parse(file.toString(), in);
        } catch (IOException e) {
            log.warn("could not read {}; its rules are not applied to the sandbox's copy", file, e);
            return NONE;
        }
        return node;
    }
}
