package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
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
    private List<Bind> binds;
    private List<String> entries;

    ProtectedMounts(Supplier<List<ProtectedLayout>> layouts) {
        this.layouts = layouts;
    }

    /** Nothing protected: for sandboxes built without rules (tests of the sandbox alone). */
    static ProtectedMounts none() {
        return new ProtectedMounts(List::of);
    }

    /** The binds, worked out (and the placeholders made) at the first call. */
    synchronized List<Bind> binds() {
        if (binds == null) {
            List<Bind> all = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (ProtectedLayout layout : layouts.get()) {
                layout.pinned().forEach(path -> all.add(bind(path, AccessMode.rw)));
                for (Path path : layout.readOnly()) {
                    all.add(bind(path, AccessMode.ro));
                    names.add(layout.root().relativize(path).toString());
                }
                for (Path missing : layout.missing()) {
                    if (placeholder(missing)) {
                        all.add(bind(missing, AccessMode.ro));
                        names.add(layout.root().relativize(missing).toString());
                    }
                }
                layout.writable().forEach(path -> all.add(bind(path, AccessMode.rw)));
            }
            binds = List.copyOf(all);
            entries = List.copyOf(names);
        }
        return binds;
    }

    /** The protected paths that are read-only in the container, relative to their root, for messages. */
    synchronized List<String> entries() {
        binds();
        return entries;
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

    private static Bind bind(Path path, AccessMode mode) {
        return new Bind(path.toString(), new Volume(path.toString()), mode);
    }
}
