package dev.dockhand.sandbox;

import dev.dockhand.core.HostPrograms;
import dev.dockhand.core.sandbox.ExecResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.exec.ProcessDestroyer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills one command's processes: all of them as soon as its main process exits (so processes it left behind end with
 * it, and so does their hold on its output pipes), and at a time-out or cancel. It learns the main process from
 * commons-exec (as its {@link ProcessDestroyer}) or from {@link #add} directly. The command runs under {@code setsid},
 * so its process group is its own; {@link ProcessSweep} finds the group's members and the processes that left it by
 * the command's environment marker. Without {@code /proc} the group is signalled and the descendants found by walking
 * the tree are killed. Commands still running when the JVM shuts down are killed by a shutdown hook: in their own
 * session, they would otherwise outlive Dockhand.
 */
final class ProcessTreeKiller implements ProcessDestroyer {
    private static final Logger log = LoggerFactory.getLogger(ProcessTreeKiller.class);

    /** Commands not yet swept, killed if the JVM shuts down (SIGTERM, or an exit) while they run. */
    private static final Set<ProcessTreeKiller> LIVE = ConcurrentHashMap.newKeySet();

    /** Sweeps run here, off commons-exec's and the JDK's process threads; daemons, never holding the JVM up. */
    private static final Executor SWEEPERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-sweep");
        thread.setDaemon(true);
        return thread;
    });

    /** How long {@link #awaitSwept} waits; a sweep takes milliseconds, a fork bomb's a little longer. */
    private static final long SWEEP_WAIT_SECONDS = 10;

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> LIVE.forEach(killer -> killer.kill(ExecResult.Termination.CANCELLED)),
                        "dockhand-kill-commands"));
    }

    private final AtomicReference<Process> process = new AtomicReference<>();
    private final AtomicReference<ExecResult.Termination> killedBy = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<Void>> sweptAfterExit = new AtomicReference<>();
    private final AtomicReference<ProcessSweep> sweeper = new AtomicReference<>();
    private final boolean ownGroup;
    private final String marker;

    /**
     * @param ownGroup whether the command runs under {@code setsid}, so that its group holds only its processes
     * @param marker the {@code NAME=value} entry in the command's environment
     */
    ProcessTreeKiller(boolean ownGroup, String marker) {
        this.ownGroup = ownGroup;
        this.marker = marker;
    }

    @Override
    public boolean add(Process started) {
        // The sweeper first: a time-out firing now sees the process only once it can sweep it.
        if (ProcessSweep.available()) {
            sweeper.set(new ProcessSweep(started.pid(), marker));
        }
        process.set(started);
        LIVE.add(this);
        sweptAfterExit.set(started.onExit().thenRunAsync(this::sweepAfterExit, SWEEPERS));
        if (killedBy.get() != null) {
            // The time-out or cancel came while the process was being launched.
            killTree(started);
        }
        return true;
    }

    @Override
    public boolean remove(Process finished) {
        // Nothing to do: the command stays live until its sweep has run.
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

    /** Whether the main process has exited and the processes it left behind are gone. */
    boolean swept() {
        CompletableFuture<Void> swept = sweptAfterExit.get();
        return swept != null && swept.isDone();
    }

    /** Waits until the processes left after the main one exited are gone; returns at once if none was started. */
    void awaitSwept() {
        CompletableFuture<Void> swept = sweptAfterExit.get();
        if (swept == null) {
            return;
        }
        try {
            swept.get(SWEEP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("the processes a command left behind may still run", e);
        }
    }

    private void sweepAfterExit() {
        try {
            sweep(process.get());
        } finally {
            LIVE.remove(this);
        }
    }

    private void killTree(Process root) {
        // Collect descendants first: once the root dies they are re-parented and can no longer be found from it.
        List<ProcessHandle> descendants = new ArrayList<>();
        root.descendants().forEach(descendants::add);
        sweep(root);
        descendants.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
    }

    /** Kills the group {@code root} leads and every marked process. */
    private void sweep(Process root) {
        ProcessSweep procSweep = sweeper.get();
        if (procSweep != null) {
            if (!procSweep.killAll()) {
                log.warn("some processes of a command outlived every pass of killing (a fork bomb?)");
            }
        } else if (ownGroup) {
            killGroup(root.pid());
        }
    }

    private static void killGroup(long pgid) {
        try {
            Process kill = new ProcessBuilder(HostPrograms.require("kill"), "-KILL", "--", "-" + pgid)
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
