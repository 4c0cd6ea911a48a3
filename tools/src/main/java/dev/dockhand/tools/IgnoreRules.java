package dev.dockhand.tools;

import dev.dockhand.core.glob.Glob;
import dev.dockhand.core.glob.IgnoreFile;
import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which paths the search tools pass over: {@code .git}, anything a {@code .gitignore} (or {@code .git/info/exclude})
 * excludes, and the tool call's own ignore globs. {@code .gitignore} files are read as the walk reaches their
 * folders, plus those of the folders between the root and where the walk starts, so a search of a sub-folder obeys
 * the same rules as one from the root. They are read like any file the tools read, through the workspace and never
 * through a link leading out of it: their lines decide what a search shows, so a file outside must not supply them.
 *
 * <p>The rules are git's own, read by core's {@link IgnoreFile} (the checkpoints' store uses the same): the
 * {@code .gitignore} nearest a path decides first, each one deeper overriding those above it, then
 * {@code .git/info/exclude}; a path in an ignored folder is ignored, whatever a rule says of it, but for the folder
 * the call searches ({@link #startAt}): one the model names, {@code node_modules/pkg}, is searched, as ripgrep searches
 * a path it is given, so both give the same answer. A walk asks about every entry it meets, so a question costs a few
 * string comparisons for most rules, and no rule, however it is written, more than the path's length times its own;
 * the tool call's globs are matched the same way ({@link Glob}).
 */
final class IgnoreRules {
    private static final String GITIGNORE = ".gitignore";

    private final Workspace workspace;
    private final Path root;
    private final String rootText;
    /** Each folder's {@code .gitignore}, by the folder's path relative to the root ("" for the root itself). */
    private final Map<String, IgnoreFile> gitIgnores = new HashMap<>();

    private final IgnoreFile exclude;
    private final Set<Path> loaded = new HashSet<>();
    private final List<Glob> extra = new ArrayList<>();
    /** What was decided of each folder asked about, by its relative path: the walk asks about a file's folder first. */
    private final Map<String, Boolean> folders = new HashMap<>();
    /** The folder the call searches, relative to the root: it and the folders above it are searched even if ignored. */
    private String start = "";

    /**
     * Rules relative to the workspace root, where {@code .gitignore} rules start, and the call's own globs.
     *
     * @throws Glob.InvalidGlobException when one of {@code ignoreGlobs} is no glob (the tool validates them first)
     */
    IgnoreRules(Workspace workspace, List<String> ignoreGlobs) {
        this.workspace = workspace;
        this.root = workspace.root();
        this.rootText = root.toString();
        for (String glob : ignoreGlobs) {
            extra.add(Glob.compile(glob));
        }
        exclude = readFile(root.resolve(".git/info/exclude"));
    }

    /**
     * Starts the call's search at {@code folder}: reads the {@code .gitignore} files of every folder from the root down
     * to it, and searches it even when it, or a folder above it, is ignored, as ripgrep searches a path it is given;
     * the rules still decide what lies below it.
     */
    void startAt(Path folder) {
        if (!folder.startsWith(root)) {
            return;
        }
        start = relative(folder);
        Path current = root;
        load(current);
        for (Path part : root.relativize(folder)) {
            current = current.resolve(part);
            load(current);
        }
    }

    /** Reads {@code folder/.gitignore} once, if there is one. */
    private void load(Path folder) {
        if (folder.startsWith(root) && loaded.add(folder)) {
            add(folder, readFile(folder.resolve(GITIGNORE)));
        }
    }

    /**
     * Reads the {@code .gitignore} of a folder a walk holds open, once: a plain file through the open folder, a link
     * through the workspace, which follows it only when it stays inside.
     */
    void load(OpenFolder folder) {
        Path path = folder.path();
        if (!path.startsWith(root) || !loaded.add(path)) {
            return;
        }
        try {
            Optional<BasicFileAttributes> attributes = folder.attributes(GITIGNORE);
            if (attributes.isEmpty()) {
                return;
            }
            if (attributes.get().isSymbolicLink()) {
                add(path, readFile(path.resolve(GITIGNORE)));
                return;
            }
            if (attributes.get().isRegularFile()) {
                try (InputStream in = Channels.newInputStream(folder.read(GITIGNORE))) {
                    add(path, IgnoreFile.read(in));
                }
            }
        } catch (IOException e) {
            // An unreadable .gitignore ignores nothing; the search goes on.
        }
    }

    /** The rules of an ignore file read through the workspace; empty when there is none or it cannot be read. */
    private IgnoreFile readFile(Path file) {
        try (WorkspaceFile ignoreFile = workspace.openForRead(file.toString())) {
            if (ignoreFile.kind() == WorkspaceFile.Kind.FILE) {
                try (InputStream in = Channels.newInputStream(ignoreFile.open())) {
                    return IgnoreFile.read(in);
                }
            }
        } catch (PathOutsideWorkspaceException | IOException e) {
            // An unreadable .gitignore, or one linked from outside, ignores nothing; the search goes on.
        }
        return IgnoreFile.EMPTY;
    }

    private void add(Path folder, IgnoreFile file) {
        if (!file.isEmpty()) {
            gitIgnores.put(relative(folder), file);
        }
    }

    /**
     * A path below the root as git writes it: relative, with forward slashes. Cut from the path's text rather than
     * made by {@link Path#relativize}, which builds a new path for each of the walk's many questions.
     */
    private String relative(Path path) {
        String text = path.toString();
        int cut = rootText.length() + (rootText.endsWith(File.separator) ? 0 : 1);
        return text.length() <= cut ? "" : text.substring(cut).replace(File.separatorChar, '/');
    }

    /** Whether {@code .git/info/exclude} holds any rule, beyond comments and blank lines. */
    boolean excludesAny() {
        return !exclude.isEmpty();
    }

    boolean isIgnored(Path path, boolean directory) {
        Path name = path.getFileName();
        if (name != null && name.toString().equals(".git")) {
            return true;
        }
        for (Glob glob : extra) {
            if (name != null && glob.matches(name) || path.startsWith(root) && glob.matches(root.relativize(path))) {
                return true;
            }
        }
        if (!path.startsWith(root) || path.equals(root) || gitIgnores.isEmpty() && exclude.isEmpty()) {
            return false;
        }
        String relative = relative(path);
        int slash = relative.lastIndexOf('/');
        return slash > 0 && folderIgnored(relative.substring(0, slash)) || decided(relative, directory);
    }

    /**
     * Whether a folder, or one it lies in below the call's start, is ignored: git looks no further into an ignored
     * folder. The start folder and those above it count as not ignored ({@link #startAt}).
     */
    private boolean folderIgnored(String folder) {
        if (start.startsWith(folder) && (start.length() == folder.length() || start.charAt(folder.length()) == '/')) {
            return false;
        }
        Boolean known = folders.get(folder);
        if (known == null) {
            int slash = folder.lastIndexOf('/');
            known = slash > 0 && folderIgnored(folder.substring(0, slash)) || decided(folder, true);
            folders.put(folder, known);
        }
        return known;
    }

    /** What the rules say of {@code relative} itself: the nearest .gitignore with a rule for it, then the exclude. */
    private boolean decided(String relative, boolean directory) {
        return IgnoreFile.ignored(
                relative, directory, folder -> gitIgnores.getOrDefault(folder, IgnoreFile.EMPTY), exclude);
    }
}
