package dev.dockhand.core.checkpoint;

import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.PathChangedException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A workspace path as a restore reaches it: its folders opened from the workspace's root one name at a time without
 * following a link, and held open ({@link OpenFolder}), so the file is looked at, written, renamed and removed
 * relative to the folder that was checked, never through a path looked up again. A command still running (in the
 * background, in the sandbox) that swaps a folder for a link after the check cannot redirect the restore out of the
 * workspace: the open handle still names the folder that was checked.
 */
final class HeldPath implements Closeable {
    private final Path workspace;
    /** The folders opened, from the workspace's root down; the last one holds the file when none is missing. */
    private final List<OpenFolder> held = new ArrayList<>();
    /** The names of the folders between the root and the file. */
    private final List<String> folders;

    private final String name;
    private final String path;
    private String refused;

    private HeldPath(Path workspace, String path) {
        // Its own path is trusted (a link in it, say /tmp on macOS, is the user's): its real path is the root held.
        this.workspace = workspace;
        this.path = path;
        List<String> names = List.of(path.split("/"));
        this.folders = names.subList(0, names.size() - 1);
        this.name = names.get(names.size() - 1);
    }

    /**
     * Opens the folders of {@code path} (relative to {@code workspace}, with {@code /}) as far as they exist. A folder
     * on the way that is a link or not a folder stops the walk, and {@link #refused} says which.
     */
    static HeldPath open(Path workspace, String path) throws IOException {
        HeldPath opened = new HeldPath(workspace.toRealPath(), path);
        try {
            opened.held.add(OpenFolder.open(workspace));
            opened.walk();
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }

    private void walk() throws IOException {
        for (int i = 0; i < folders.size(); i++) {
            OpenFolder folder = held.get(held.size() - 1);
            String shown = String.join("/", folders.subList(0, i + 1));
            Optional<BasicFileAttributes> attributes = folder.attributes(folders.get(i));
            if (attributes.isEmpty()) {
                return;
            }
            if (attributes.get().isSymbolicLink()) {
                refused = shown + " is a symbolic link";
                return;
            }
            if (!attributes.get().isDirectory()) {
                refused = shown + " is not a folder";
                return;
            }
            try {
                held.add(folder.folder(folders.get(i)));
            } catch (PathChangedException e) {
                refused = shown + " is a symbolic link now, though it was not when it was checked";
                return;
            } catch (NotDirectoryException e) {
                refused = shown + " is not a folder";
                return;
            } catch (NoSuchFileException e) {
                return;
            }
        }
    }

    /** Why the path is not to be written or removed through: a folder on the way is a link, or not a folder. */
    Optional<String> refused() {
        return Optional.ofNullable(refused);
    }

    /** Whether every folder on the way exists, so {@link #folder} holds the file's name. */
    boolean complete() {
        return refused == null && held.size() == folders.size() + 1;
    }

    /** The folder holding the file; only when {@link #complete}. */
    OpenFolder folder() {
        if (!complete()) {
            throw new IllegalStateException(path + " has no folder yet");
        }
        return held.get(held.size() - 1);
    }

    /** The file's own name in {@link #folder}. */
    String name() {
        return name;
    }

    /** The file's attributes, a link's own; empty when it or a folder on the way is missing. */
    Optional<BasicFileAttributes> attributes() throws IOException {
        return complete() ? folder().attributes(name) : Optional.empty();
    }

    /** Creates the missing folders on the way, each relative to the one above, held open. */
    void createFolders() throws IOException {
        while (!complete()) {
            OpenFolder folder = held.get(held.size() - 1);
            String next = folders.get(held.size() - 1);
            folder.createFolder(next);
            held.add(folder.folder(next));
        }
    }

    /**
     * Whether the folder holding the file is still where the path leads: a folder moved or replaced by a link since it
     * was opened is not written in, though what is written through the handle would stay in that folder, because the
     * restore's result would then not be at the path the user was shown.
     */
    boolean inPlace() throws IOException {
        Path where = workspace.resolve(String.join("/", folders));
        try {
            return Objects.equals(
                    folder().ownAttributes().fileKey(),
                    Files.readAttributes(where, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                            .fileKey());
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** Why the path was not written or removed when {@link #inPlace} said no. */
    String moved() {
        String shown = folders.isEmpty() ? "the workspace" : String.join("/", folders);
        return shown + " was moved or replaced during the restore, so nothing was changed in it";
    }

    /**
     * Removes the folders the file's removal left empty, from the deepest up to (not including) the workspace's root;
     * each is removed relative to the one above, so a link put in its place is not followed.
     */
    void removeEmptyFolders() throws IOException {
        for (int i = held.size() - 1; i > 0; i--) {
            if (!held.get(i).names().isEmpty()) {
                return;
            }
            try {
                held.get(i - 1).deleteFolder(folders.get(i - 1));
            } catch (DirectoryNotEmptyException | NoSuchFileException | NotDirectoryException e) {
                // Something appeared in it, or it went or changed since it was looked at: it is left as it is.
                return;
            }
        }
    }

    /**
     * Up to {@code limit} of the files and links under the sub-folder {@code name} of {@code folder}, relative to it,
     * walked through open handles.
     */
    static List<String> files(OpenFolder folder, String name, int limit) throws IOException {
        List<String> found = new ArrayList<>();
        try (OpenFolder sub = folder.folder(name)) {
            collect(sub, "", limit, found);
        }
        return found;
    }

    private static void collect(OpenFolder folder, String prefix, int limit, List<String> found) throws IOException {
        for (String entry : folder.names()) {
            if (found.size() >= limit) {
                return;
            }
            Optional<BasicFileAttributes> attributes = folder.attributes(entry);
            if (attributes.isEmpty()) {
                continue;
            }
            if (attributes.get().isDirectory()) {
                try (OpenFolder sub = folder.folder(entry)) {
                    collect(sub, prefix + entry + "/", limit, found);
                }
            } else {
                found.add(prefix + entry);
            }
        }
    }

    /**
     * Removes the sub-folder {@code name} of {@code folder} when it holds nothing but folders, each removed relative to
     * the one above; a file or link anywhere under it stops it with a {@link DirectoryNotEmptyException}.
     */
    static void deleteEmptyFolders(OpenFolder folder, String name) throws IOException {
        try (OpenFolder sub = folder.folder(name)) {
            for (String entry : sub.names()) {
                Optional<BasicFileAttributes> attributes = sub.attributes(entry);
                if (attributes.isPresent() && attributes.get().isDirectory()) {
                    deleteEmptyFolders(sub, entry);
                } else if (attributes.isPresent()) {
                    throw new DirectoryNotEmptyException(entry);
                }
            }
        }
        folder.deleteFolder(name);
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (OpenFolder folder : held) {
            try {
                folder.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
