package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mounts that keep the protected paths (see {@link ProtectedLayout}) out of the container's reach, on top of the
 * read-write workspace: each existing protected path read-only; each git folder that holds some, and every folder
 * above a protected path, mounted onto itself, since a mount point cannot be renamed or removed ({@code mv .git .old}
 * or {@code mv scripts scripts2} would otherwise carry the protection away with it); an empty read-only folder over
 * each protected folder missing at the top of the workspace, so that nothing (a command, or a background process at
 * any later moment) can create it; and allowed paths under a read-only one writable again. The empty folders are made
 * on the host, as the user, before the container starts, and removed when the sandbox closes if they are still empty.
 * Docker mounts parents before children, so the order here is free.
 *
 * <p>Only a path that is its own real path is ever mounted: the engine follows links in a mount's source on the host,
 * so a protected path that is a link, or lies under one ({@code .mcp.json -> /var/run/docker.sock}), would bring in
 * whatever it leads to. Such a path is checked again for each container, a replacement's included, since a command
 * may have changed it meanwhile; what a link leads to inside the workspace is protected by its own real path, and the
 * links themselves, which no mount can hold, are put back (see {@link #steps}).
 */
final class ProtectedMounts {
    private static final Logger log = LoggerFactory.getLogger(ProtectedMounts.class);

    private final Supplier<List<ProtectedLayout>> layouts;
    private final List<Path> placeholders = new ArrayList<>();
    private List<Planned> planned;
    private List<String> entries;
    private List<Kept> kept;

    ProtectedMounts(Supplier<List<ProtectedLayout>> layouts) {
        this.layouts = layouts;
    }

    /**
     * The mounts, for a container about to start. The layout is scanned (and the placeholders made) at the first
     * call; each call leaves out what has vanished since (a replacement container after a command moved a folder), as
     * a mount whose source is missing fails rather than letting the engine create it, as root, in the workspace, and
     * what is not its own real path (any more), as the engine would follow the link on the host, and what stands at or
     * under a link the scan found (see {@link #atOrUnderKeptLink}).
     */
    synchronized List<Mount> mounts() {
        if (planned == null) {
            plan();
        }
        List<Mount> mounts = new ArrayList<>();
        for (Planned mount : planned) {
            if (!atOrUnderKeptLink(mount.path()) && isReal(mount.path())) {
                mounts.add(new Mount()
                        .withType(MountType.BIND)
                        .withSource(mount.path().toString())
                        .withTarget(mount.path().toString())
                        .withReadOnly(mount.readOnly()));
            }
        }
        return mounts;
    }

    /**
     * Whether {@code path} is, or lies under, a link the scan found: whatever stands there now was put there by a
     * command (a folder in place of {@code .vscode -> cfg}), and mounted read-only onto itself it could never be moved
     * away to put the link back.
     */
    private boolean atOrUnderKeptLink(Path path) {
        for (Kept keep : kept()) {
            if (path.startsWith(keep.link().path())) {
                log.info("not mounting the protected path {}: the session found a link at {}", path, keep.name());
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code path} exists and is its own real path, no link on the way. A path that is not (a link the scan
     * found, or one a command planted since) is not mounted, rather than mounting what it leads to on the host.
     */
    private static boolean isReal(Path path) {
        Optional<Path> real = ProtectedLayout.realPath(path);
        if (real.isPresent() && real.get().equals(path)) {
            return true;
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            log.info(
                    "not mounting the protected path {}: a link leads it {}",
                    path,
                    real.map(to -> "to " + to).orElse("nowhere"));
        }
        return false;
    }

    /** One planned mount: a path mounted onto itself, read-only or not. */
    private record Planned(Path path, boolean readOnly) {}

    /** A link on the way to a protected path, as the scan found it, and its name for messages. */
    private record Kept(ProtectedLayout.Link link, String name) {}

    private void plan() {
        List<Path> pins = new ArrayList<>();
        List<Path> readOnly = new ArrayList<>();
        List<Path> writable = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ProtectedLayout layout : layouts.get()) {
            pins.addAll(layout.pinned());
            pins.addAll(layout.above());
            for (Path path : layout.readOnly()) {
                readOnly.add(path);
                names.add(name(layout, path));
            }
            for (Path missing : layout.missing()) {
                if (placeholder(missing)) {
                    readOnly.add(missing);
                    names.add(name(layout, missing));
                }
            }
            writable.addAll(layout.writable());
        }
        // One mount per path, read-only winning; and no pin at or under a read-only path, where its writable mount
        // would open what the read-only one closes (a read-only folder needs no pin: nothing in it can be renamed).
        Map<Path, Planned> all = new LinkedHashMap<>();
        readOnly.forEach(path -> all.putIfAbsent(path, new Planned(path, true)));
        for (Path pin : pins) {
            if (readOnly.stream().noneMatch(pin::startsWith)) {
                all.putIfAbsent(pin, new Planned(pin, false));
            }
        }
        writable.forEach(path -> all.putIfAbsent(path, new Planned(path, false)));
        planned = List.copyOf(all.values());
        entries = List.copyOf(names);
    }

    /** The links to put back, from the layouts; without making the placeholders, which only mounts need. */
    private List<Kept> kept() {
        if (kept == null) {
            List<Kept> links = new ArrayList<>();
            for (ProtectedLayout layout : layouts.get()) {
                layout.links().forEach(link -> links.add(new Kept(link, name(layout, link.path()))));
            }
            kept = List.copyOf(links);
        }
        return kept;
    }

    /** {@code path} relative to its layout's root; absolute when it lies elsewhere (in another root). */
    private static String name(ProtectedLayout layout, Path path) {
        return path.startsWith(layout.root()) ? layout.root().relativize(path).toString() : path.toString();
    }

    /** The protected paths that are read-only in the container, relative to their root, for messages. */
    synchronized List<String> entries() {
        if (planned == null) {
            plan();
        }
        return entries;
    }

    /**
     * What it takes to put the protected paths back as the session found them, found by looking only ({@code lstat},
     * {@code readlink}, and a walk of each git folder's {@code modules}, at most as many folders as the scan): with the mount transport, first each link on the way to a
     * protected path (see {@link ProtectedLayout#links}) that a command removed, retargeted or replaced (by a folder,
     * say, in which it then wrote {@code .vscode/tasks.json}), since no mount can hold a link in place; then each path
     * that must stay absent (see {@link ProtectedLayout#absent}) and exists; then each folder that could not be looked
     * at whole for those (a {@code .git/modules} a command filled with more folders than a look counts), which no step
     * can fix and which the outcome reports. {@link ProtectedSweep} takes the steps.
     */
    synchronized List<ProtectedSweep.Step> steps(WorkspaceTransport transport) {
        List<ProtectedSweep.Step> steps = new ArrayList<>();
        if (transport == WorkspaceTransport.MOUNT) {
            for (Kept keep : kept()) {
                if (!readsAsFound(keep.link())) {
                    steps.add(new ProtectedSweep.PutBack(
                            keep.link().path(), keep.link().text(), keep.name()));
                }
            }
        }
        for (ProtectedLayout layout : layouts.get()) {
            ProtectedLayout.Absent absent = layout.absent();
            for (Path path : absent.paths()) {
                planted(layout.root(), path)
                        .filter(remove -> Files.exists(remove, LinkOption.NOFOLLOW_LINKS))
                        .ifPresent(remove -> steps.add(new ProtectedSweep.Remove(remove, name(layout, remove))));
            }
            for (ProtectedLayout.Unchecked unchecked : absent.unchecked()) {
                steps.add(new ProtectedSweep.Unchecked(
                        unchecked.path(), name(layout, unchecked.path()) + " (" + unchecked.why() + ")"));
            }
        }
        return steps;
    }

    private static boolean readsAsFound(ProtectedLayout.Link link) {
        try {
            return Files.isSymbolicLink(link.path())
                    && Files.readSymbolicLink(link.path()).equals(link.text());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * What to remove so that {@code path} (which must stay absent) is gone: the first link a command planted on the way
     * to it, rather than what that leads to (which may be anything of the user's, outside the workspace too); else the
     * path itself. Empty when a link the scan found is on the way: it is kept (and put back), and where it leads is kept
     * absent by a path of its own.
     */
    private Optional<Path> planted(Path root, Path path) {
        Path start = path.startsWith(root) ? root : path.getRoot();
        Path at = start;
        for (Path name : start.relativize(path.getParent() == null ? path : path.getParent())) {
            at = at.resolve(name);
            Path here = at;
            if (kept().stream().anyMatch(kept -> kept.link().path().equals(here))) {
                return Optional.empty();
            }
            if (Files.isSymbolicLink(at)) {
                return Optional.of(at);
            }
        }
        return Optional.of(path);
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
