package dev.dockhand.tools;

import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import nl.basjes.gitignore.GitIgnore;
import nl.basjes.gitignore.GitIgnoreFileSet;

/**
 * Which paths the search tools pass over: {@code .git}, anything a {@code .gitignore} (or {@code .git/info/exclude})
 * excludes, and the tool call's own ignore globs. {@code .gitignore} files are read as the walk reaches their
 * folders, plus those of the folders between the root and where the walk starts, so a search of a sub-folder obeys
 * the same rules as one from the root. They are read like any file the tools read, through the workspace and never
 * through a link leading out of it: their lines decide what a search shows, so a file outside must not supply them.
 */
final class IgnoreRules {
    private static final String GITIGNORE = ".gitignore";

    private final Workspace workspace;
    private final Path root;
    private final GitIgnoreFileSet gitIgnores;
    private final Set<Path> loaded = new HashSet<>();
    private final List<PathMatcher> extra = new ArrayList<>();

    /** Rules relative to the workspace root, where {@code .gitignore} rules start. */
    IgnoreRules(Workspace workspace, List<String> ignoreGlobs) {
        this.workspace = workspace;
        this.root = workspace.root();
        this.gitIgnores = new GitIgnoreFileSet(root.toFile(), false).assumeQueriesAreProjectRelative();
        for (String glob : ignoreGlobs) {
            extra.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
        }
        addFile(root.resolve(".git/info/exclude"), "");
    }

    /** Reads the {@code .gitignore} files of every folder from the root down to {@code folder}. */
    void loadDownTo(Path folder) {
        if (!folder.startsWith(root)) {
            return;
        }
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
            addFile(folder.resolve(GITIGNORE), base(folder));
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
                addFile(path.resolve(GITIGNORE), base(path));
                return;
            }
            if (attributes.get().isRegularFile()) {
                try (InputStream in = Channels.newInputStream(folder.read(GITIGNORE))) {
                    add(base(path), in.readAllBytes());
                }
            }
        } catch (IOException e) {
            // An unreadable .gitignore ignores nothing; the search goes on.
        }
    }

    private String base(Path folder) {
        String relative = root.relativize(folder).toString();
        return relative.isEmpty() ? "" : relative + "/";
    }

    private void addFile(Path file, String base) {
        try (WorkspaceFile ignoreFile = workspace.openForRead(file.toString())) {
            if (ignoreFile.kind() == WorkspaceFile.Kind.FILE) {
                add(base, ignoreFile.readAllBytes());
            }
        } catch (PathOutsideWorkspaceException | IOException e) {
            // An unreadable .gitignore, or one linked from outside, ignores nothing; the search goes on.
        }
    }

    private void add(String base, byte[] content) {
        gitIgnores.add(new GitIgnore(base, new String(content, StandardCharsets.UTF_8)));
    }

    boolean isIgnored(Path path, boolean directory) {
        Path name = path.getFileName();
        if (name != null && name.toString().equals(".git")) {
            return true;
        }
        for (PathMatcher matcher : extra) {
            if (name != null && matcher.matches(name)
                    || path.startsWith(root) && matcher.matches(root.relativize(path))) {
                return true;
            }
        }
        if (!path.startsWith(root) || path.equals(root)) {
            return false;
        }
        String relative = root.relativize(path).toString().replace(File.separatorChar, '/');
        return gitIgnores.ignoreFile(directory ? relative + "/" : relative);
    }
}
