package dev.dockhand.core.tool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The folders the model may touch: the workspace root plus any directories the user included explicitly, and
 * folders it may only read (the session's saved tool outputs). Every path a tool uses is checked, which refuses a way
 * out by {@code ..}, by an absolute path, or through a symlink anywhere along the path (including one that dangles,
 * since writing through it would create its target); symlinks whose targets stay inside are followed.
 *
 * <p>{@link #resolve} and {@link #resolveForRead} only check. A tool that reads or writes content uses {@link #open}
 * or {@link #openForRead}, which check and then open the path's real path from its root one name at a time, following
 * no link ({@link WorkspaceFile}): a command still running in the sandbox can swap a folder for a symlink between the
 * check and the use, and the path lookup of a plain {@code Files.newInputStream} would follow it.
 */
public final class Workspace {
    private final Path root;
    private final List<Path> roots;
    private final List<Path> readableRoots;

    /**
     * @param root the workspace folder
     * @param extraRoots folders from {@code --include-directory}, readable and writable
     * @param readOnlyRoots folders the tools may read but not change; created if missing
     */
    public Workspace(Path root, List<Path> extraRoots, List<Path> readOnlyRoots) {
        this.root = realPath(root);
        List<Path> all = new ArrayList<>();
        all.add(this.root);
        for (Path extra : extraRoots) {
            all.add(realPath(extra));
        }
        this.roots = List.copyOf(all);
        List<Path> readable = new ArrayList<>(all);
        for (Path readOnly : readOnlyRoots) {
            try {
                java.nio.file.Files.createDirectories(readOnly);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + readOnly, e);
            }
            readable.add(realPath(readOnly));
        }
        this.readableRoots = List.copyOf(readable);
    }

    public Workspace(Path root, List<Path> extraRoots) {
        this(root, extraRoots, List.of());
    }

    public static Workspace of(Path root) {
        return new Workspace(root, List.of());
    }

    public Path root() {
        return root;
    }

    public List<Path> roots() {
        return roots;
    }

    /**
     * Resolves a path the model gave for writing, relative to the root or absolute inside a root.
     *
     * @throws PathOutsideWorkspaceException with a sentence for the model when the path leads outside
     */
    public Path resolve(String path) throws PathOutsideWorkspaceException {
        return resolveWithin(path, roots);
    }

    /** Like {@link #resolve}, but read-only folders (saved tool outputs) are allowed too. */
    public Path resolveForRead(String path) throws PathOutsideWorkspaceException {
        return resolveWithin(path, readableRoots);
    }

    /**
     * Checks a path the model gave for writing, as {@link #resolve} does, and opens it for reading and writing.
     *
     * @throws PathOutsideWorkspaceException with a sentence for the model when the path leads outside
     * @throws PathChangedException when a folder on the path became a symbolic link after the check
     */
    public WorkspaceFile open(String path) throws PathOutsideWorkspaceException, IOException {
        return open(path, WriteGuard.NONE);
    }

    /** Like {@link #open(String)}, with {@code guard} checking the real path that the open is about to walk. */
    public WorkspaceFile open(String path, WriteGuard guard) throws PathOutsideWorkspaceException, IOException {
        WorkspaceFile.Target target = target(path, WorkspaceFile.Access.READ_WRITE);
        guard.check(target.real());
        return WorkspaceFile.open(target);
    }

    /** Like {@link #open}, for reading only; read-only folders (saved tool outputs) are allowed too. */
    public WorkspaceFile openForRead(String path) throws PathOutsideWorkspaceException, IOException {
        return WorkspaceFile.open(target(path, WorkspaceFile.Access.READ_ONLY));
    }

    /**
     * The check before an open: the path as {@link #resolve} checks it, then its real path (its links resolved), which
     * must lie in an allowed root too; the open then walks that real path from that root.
     */
    WorkspaceFile.Target target(String path, WorkspaceFile.Access access)
            throws PathOutsideWorkspaceException, IOException {
        List<Path> allowed =
                switch (access) {
                    case READ_ONLY -> readableRoots;
                    case READ_WRITE -> roots;
                };
        Path candidate = resolveWithin(path, allowed);
        Path real = realPathOf(candidate);
        // Checked again on the real path: a link may have changed since the look along the path above.
        Path owner = allowed.stream().filter(real::startsWith).findFirst().orElseThrow(() -> outside(path));
        return new WorkspaceFile.Target(candidate, owner, real, access);
    }

    /** The real path of a path that may not exist yet: its deepest existing folder's real path, then the rest. */
    public static Path realPathOf(Path candidate) throws IOException {
        Path existing = candidate;
        Deque<Path> rest = new ArrayDeque<>();
        while (existing.getParent() != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            rest.push(existing.getFileName());
            existing = existing.getParent();
        }
        Path real = existing.toRealPath();
        for (Path name : rest) {
            real = real.resolve(name);
        }
        return real;
    }

    private Path resolveWithin(String path, List<Path> allowed) throws PathOutsideWorkspaceException {
        Path candidate;
        try {
            candidate = root.resolve(path.isBlank() ? "." : path).normalize();
        } catch (InvalidPathException e) {
            throw new PathOutsideWorkspaceException("'" + path + "' is not a valid path: " + e.getReason() + ".");
        }
        Path owner = allowed.stream().filter(candidate::startsWith).findFirst().orElseThrow(() -> outside(path));
        Path walked = owner;
        for (Path part : owner.relativize(candidate)) {
            walked = walked.resolve(part);
            if (Files.isSymbolicLink(walked)) {
                checkLinkTarget(path, walked, allowed);
            }
        }
        return candidate;
    }

    /** Shows a path relative to the root when it is inside it, as the model and user know it. */
    public String display(Path path) {
        if (path.startsWith(root)) {
            String relative = root.relativize(path).toString();
            return relative.isEmpty() ? "." : relative;
        }
        return path.toString();
    }

    private void checkLinkTarget(String path, Path link, List<Path> allowed) throws PathOutsideWorkspaceException {
        Path target;
        try {
            target = link.toRealPath();
        } catch (IOException e) {
            throw new PathOutsideWorkspaceException("'" + path + "' goes through the symlink " + display(link)
                    + ", whose target does not exist; refusing to follow it.");
        }
        if (allowed.stream().noneMatch(target::startsWith)) {
            throw new PathOutsideWorkspaceException("'" + path + "' goes through the symlink " + display(link) + " to "
                    + target + ", which is outside the workspace " + root + ".");
        }
    }

    private PathOutsideWorkspaceException outside(String path) {
        return new PathOutsideWorkspaceException(
                "'" + path + "' is outside the workspace " + root + "; only paths inside it can be used.");
    }

    private static Path realPath(Path path) {
        try {
            return path.toAbsolutePath().normalize().toRealPath(new LinkOption[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("workspace folder " + path + " cannot be opened", e);
        }
    }
}
