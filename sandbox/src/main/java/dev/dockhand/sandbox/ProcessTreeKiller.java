package dev.dockhand.sandbox;

import dev.dockhand.core.sandbox.ExecResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.exec.ProcessDestroyer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns the launched process from commons-exec (as its {@link ProcessDestroyer}) and kills the whole tree on
 * time-out or cancel. The command runs under {@code setsid}, so its process group is its own and one signal to the
 * group reaches every child, even ones that outlived their parent; descendants found by walking the tree are killed
 * too, for the ones that started groups of their own. Commands still running when the JVM shuts down are killed
 * by a shutdown hook: in their own session, they would otherwise outlive Dockhand.
 */
final class ProcessTreeKiller implements ProcessDestroyer {
    private static final Logger log = LoggerFactory.getLogger(ProcessTreeKiller.class);

    /** Commands still running, killed if the JVM shuts down (SIGTERM, or an exit) while they run. */
    private static final Set<ProcessTreeKiller> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> LIVE.forEach(killer -> killer.kill(ExecResult.Termination.CANCELLED)),
                        "dockhand-kill-commands"));
    }

    private final AtomicReference<Process> process = new AtomicReference<>();
    private final AtomicReference<ExecResult.Termination> killedBy = new AtomicReference<>();
    private final boolean ownGroup;

    ProcessTreeKiller(boolean ownGroup) {
        this.ownGroup = ownGroup;
    }

    @Override
    public boolean add(Process started) {
        process.set(started);
        LIVE.add(this);
        if (killedBy.get() != null) {
            // The time-out or cancel came while the process was being launched.
            killTree(started);
        }
        return true;
    }

    @Override
    public boolean remove(Process finished) {
        LIVE.remove(this);
        return true;
    }

    @Override
    public int size() {
        return process.get() == null ? 0 : 1;
    }

    /** Kills the tree once; the first reason wins. */
    void kill(ExecResult.Termination reason) {
        if (!killedBy.compareAndSet(null, reason)) {
            return;
        }
        Process started = process.get();
        if (started != null) {
            killTree(started);
        }
    }

    /** Why the command was killed, or null when it ended by itself. */
    ExecResult.Termination killedBy() {
        return killedBy.get();
    }

    private void killTree(Process root) {
        // Collect descendants first: once the root dies they are re-parented and can no longer be found from it.
        List<ProcessHandle> descendants = new ArrayList<>();
        root.descendants().forEach(descendants::add);
        if (ownGroup) {
            killGroup(root.pid());
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
    }

    private static void killGroup(long pgid) {
        try {
            Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + pgid)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            kill.waitFor(2, TimeUnit.SECONDS);
        } catch (IOException e) {
            log.warn("could not signal process group {}", pgid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
