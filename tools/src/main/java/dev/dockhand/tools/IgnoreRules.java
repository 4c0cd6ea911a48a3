package dev.dockhand.tools;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import nl.basjes.gitignore.GitIgnore;
import nl.basjes.gitignore.GitIgnoreFileSet;

/**
 * Which paths the search tools pass over: {@code .git}, anything a {@code .gitignore} (or {@code .git/info/exclude})
 * excludes, and the tool call's own ignore globs. {@code .gitignore} files are read as the walk reaches their
 * folders, plus those of the folders between the root and where the walk starts, so a search of a sub-folder obeys
 * the same rules as one from the root.
 */
final class IgnoreRules {
    private final Path root;
    private final GitIgnoreFileSet gitIgnores;
    private final Set<Path> loaded = new HashSet<>();
    private final List<PathMatcher> extra = new ArrayList<>();

    /** @param root the folder whose {@code .gitignore} rules are relative to it (the workspace root) */
    IgnoreRules(Path root, List<String> ignoreGlobs) {
        this.root = root;
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
    void load(Path folder) {
        if (!folder.startsWith(root) || !loaded.add(folder)) {
            return;
        }
        String relative = root.relativize(folder).toString();
        addFile(folder.resolve(".gitignore"), relative.isEmpty() ? "" : relative + "/");
    }

    private void addFile(Path file, String base) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        try {
            gitIgnores.add(new GitIgnore(base, new File(file.toString())));
        } catch (IOException e) {
            // An unreadable .gitignore ignores nothing; the search goes on.
        }
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
