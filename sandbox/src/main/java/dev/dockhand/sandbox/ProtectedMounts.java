package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.dockhand.core.FileTrees;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mounts that keep the protected paths (see {@link ProtectedLayout}) out of the container's reach, on top of the
 * read-write workspace: each existing protected path read-only; each git folder that holds some mounted onto itself,
 * since a mount point cannot be renamed or removed ({@code mv .git .old} would otherwise carry the protection away
 * with it); an empty read-only folder over each protected folder missing at the top of the workspace, so that nothing
 * (a command, or a background process at any later moment) can create it; and allowed paths under a read-only one
 * writable again. The empty folders are made on the host, as the user, before the container starts, and removed when
 * the sandbox closes if they are still empty. Docker mounts parents before children, so the order here is free.
 */
final class ProtectedMounts {
    private static final Logger log = LoggerFactory.getLogger(ProtectedMounts.class);

    private final Supplier<List<ProtectedLayout>> layouts;
    private final List<Path> placeholders = new ArrayList<>();
    private List<Planned> planned;
    private List<String> entries;

    ProtectedMounts(Supplier<List<ProtectedLayout>> layouts) {
        this.layouts = layouts;
    }

    /**
     * The mounts, for a container about to start. The layout is scanned (and the placeholders made) at the first
     * call; each call leaves out what has vanished since (a replacement container after a command moved a folder), and
     * a mount whose source is missing fails rather than letting the engine create it, as root, in the workspace.
     */
    synchronized List<Mount> mounts() {
        if (planned == null) {
            plan();
        }
        List<Mount> mounts = new ArrayList<>();
        for (Planned mount : planned) {
            if (Files.exists(mount.path(), LinkOption.NOFOLLOW_LINKS)) {
                mounts.add(new Mount()
                        .withType(MountType.BIND)
                        .withSource(mount.path().toString())
                        .withTarget(mount.path().toString())
                        .withReadOnly(mount.readOnly()));
            }
        }
        return mounts;
    }

    /** One planned mount: a path mounted onto itself, read-only or not. */
    private record Planned(Path path, boolean readOnly) {}

    private void plan() {
        List<Planned> all = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ProtectedLayout layout : layouts.get()) {
            layout.pinned().forEach(path -> all.add(new Planned(path, false)));
            for (Path path : layout.readOnly()) {
                all.add(new Planned(path, true));
                names.add(layout.root().relativize(path).toString());
            }
            for (Path missing : layout.missing()) {
                if (placeholder(missing)) {
                    all.add(new Planned(missing, true));
                    names.add(layout.root().relativize(missing).toString());
                }
            }
            layout.writable().forEach(path -> all.add(new Planned(path, false)));
        }
        planned = List.copyOf(all);
        entries = List.copyOf(names);
    }

    /** The protected paths that are read-only in the container, relative to their root, for messages. */
    synchronized List<String> entries() {
        if (planned == null) {
            plan();
        }
        return entries;
    }

    /**
     * Removes each path that must stay absent (see {@link ProtectedLayout#absent}) and exists now, without following
     * links; returns them relative to their root. Called after each command, and at close.
     */
    synchronized List<String> removeCreated() {
        List<String> removed = new ArrayList<>();
        for (ProtectedLayout layout : layouts.get()) {
            for (Path path : layout.absent()) {
                if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                    try {
                        FileTrees.deleteTree(path);
                        removed.add(layout.root().relativize(path).toString());
                    } catch (IOException e) {
                        log.error("could not remove {}, which a command created", path, e);
                    }
                }
            }
        }
        return removed;
    }

    /** Removes the empty folders this made, once the container that mounted them is gone. */
    synchronized void removePlaceholders() {
        for (Path folder : placeholders) {
            try {
                Files.deleteIfExists(folder);
            } catch (DirectoryNotEmptyException e) {
                // Something of the user's (their editor, on the host) put a file there: it stays.
            } catch (IOException e) {
                log.warn("could not remove the empty protected folder {}", folder, e);
            }
        }
        placeholders.clear();
    }

    private boolean placeholder(Path folder) {
        try {
            Files.createDirectory(folder);
            placeholders.add(folder);
            return true;
        } catch (IOException e) {
            log.warn("could not make the empty protected folder {}; creating it stays possible", folder, e);
            return false;
        }
    }
}
