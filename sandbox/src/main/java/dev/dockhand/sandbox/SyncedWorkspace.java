package dev.dockhand.sandbox;

import com.github.dockerjava.api.model.HostConfig;
import dev.dockhand.core.sandbox.HostWrites;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import dev.dockhand.core.tool.ProtectedLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The workspace copied into a container on an engine that cannot see this machine's disk, and kept the same around
 * each command, root by root (see {@link SyncedRoot}). The container gets no mount of the host at all; the roots are
 * at their own paths, as with a mount, so paths in output mean the same on both sides.
 */
final class SyncedWorkspace implements DockerWorkspace {
    private final ContainerSpec spec;
    private final SyncLimits limits;
    private final Supplier<List<ProtectedLayout>> layouts;
    private List<SyncedRoot> roots = List.of();
    /** The copy back after a cancelled command, while it runs. */
    private CompletableFuture<Void> pending = CompletableFuture.completedFuture(null);
    /** What that copy back could not do, for the next command's result. */
    private final List<CopyBackNotice> carried = new ArrayList<>();
    /** Turns at writing the host's files, shared with the file tools. */
    private final HostWriteLock hostWrites = new HostWriteLock();

    SyncedWorkspace(ContainerSpec spec, SyncLimits limits, Supplier<List<ProtectedLayout>> layouts) {
        this.spec = spec;
        this.limits = limits;
        this.layouts = layouts;
    }

    @Override
    public WorkspaceTransport transport() {
        return WorkspaceTransport.SYNC;
    }

    @Override
    public HostConfig hostConfig() {
        return spec.syncedHostConfig();
    }

    /** A fresh container has nothing of the workspace: every root is copied in whole, and each side's record restarts. */
    @Override
    public void started(ContainerFiles files) throws IOException {
        settle();
        startedAfterSettling(files);
    }

    private synchronized void startedAfterSettling(ContainerFiles files) throws IOException {
        List<SyncedRoot> fresh = new ArrayList<>();
        for (Path root : spec.mounts()) {
            SyncedRoot synced = new SyncedRoot(root, limits, layouts);
            synced.copyIn(files);
            fresh.add(synced);
        }
        roots = List.copyOf(fresh);
    }

    @Override
    public void beforeCommand(ContainerFiles files) throws IOException {
        settle();
        push(files);
    }

    private synchronized void push(ContainerFiles files) throws IOException {
        for (SyncedRoot root : roots) {
            root.push(files);
        }
    }

    /**
     * A failure to copy back is said in the result rather than thrown: the command did run. The copy back takes its
     * turn at the host's files (see {@link HostWriteLock}), so a file tool's write never comes between its check that
     * the host still has a file as last synced and its writing of that file.
     */
    @Override
    public List<String> afterCommand(ContainerFiles files) {
        return copyBack(files).stream().map(CopyBackNotice::toModel).toList();
    }

    @Override
    public List<String> afterSession(ContainerFiles files) {
        return copyBack(files).stream().map(CopyBackNotice::toUser).toList();
    }

    private synchronized List<CopyBackNotice> copyBack(ContainerFiles files) {
        List<CopyBackNotice> notices = new ArrayList<>(carried);
        carried.clear();
        try (HostWrites.Turn turn = hostWrites.take()) {
            for (SyncedRoot root : roots) {
                try {
                    notices.addAll(root.pull(files));
                } catch (IOException | RuntimeException e) {
                    String reason = DockerSandbox.reason(e);
                    notices.add(new CopyBackNotice(
                            "The files the command changed in " + root.root() + " could not all be copied to the"
                                    + " user's machine (" + reason + "); the sandbox has them.",
                            "The files commands changed in " + root.root() + " could not all be copied to this"
                                    + " machine (" + reason + "); they went with the sandbox."));
                }
            }
        }
        return notices;
    }

    @Override
    public HostWriteLock hostWrites() {
        return hostWrites;
    }

    @Override
    public void afterCommandInBackground(ContainerFiles files) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (this) {
            pending = done;
        }
        Thread copyBack = new Thread(
                () -> {
                    try {
                        List<CopyBackNotice> notices = copyBack(files);
                        synchronized (this) {
                            carried.addAll(notices);
                        }
                    } finally {
                        done.complete(null);
                    }
                },
                "dockhand-sync-back");
        copyBack.setDaemon(true);
        copyBack.start();
    }

    /** Waits outside the lock, which the copy back needs. */
    @Override
    public void settle() {
        CompletableFuture<Void> under;
        synchronized (this) {
            under = pending;
        }
        under.join();
    }
}
