package dev.dockhand.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.dockhand.core.sandbox.WorkspaceTransport;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's container: started on the first command or ahead of it, replaced by a fresh one on the same mounts
 * when it stops answering, removed at the end or when the JVM shuts down; and what is tracked about it (how many
 * times the kernel's OOM killer struck in it). Containers left by Dockhand processes that were killed are removed here too.
 */
final class SandboxContainer {
    private static final Logger log = LoggerFactory.getLogger(SandboxContainer.class);
    private static final Pattern OOM_KILLS = Pattern.compile("oom_kill (\\d+)");

    private final DockerClient docker;
    private final ContainerSpec spec;
    private final ProtectedMounts protectedMounts;
    private final DockerWorkspace workspace;
    /** Written under the lock; read without it by {@link #knownId}, which must answer while a call on it stalls. */
    private volatile String id;

    private long oomKills;
    /** Read without the lock by {@link #abandon}. */
    private volatile Thread removeOnShutdown;
    /** How long the shutdown hook waits for the engine to remove the container. */
    private volatile Duration removeLimit = DockerSandbox.CLOSE_LIMIT;
    /** Set by {@link #ending}. */
    private volatile boolean ending;

    private volatile Duration pingLimit = Bounded.PING_LIMIT;
    /** Whether a start was tried, by a command or ahead of one; the start ahead is only ever the first. */
    private boolean startTried;
    /** Why the start ahead of the first command failed, until a command has been told. */
    private IOException startAheadFailure;

    private volatile boolean closed;
    /** Set when the engine failed to remove a container, which may then still run commands. */
    private boolean leftRunning;
    /** What the sweep before a container's start did ({@link #sweepBeforeStart}), until a sweep reports it. */
    private ProtectedSweep.Outcome sweptBeforeStart = ProtectedSweep.Outcome.NONE;
    /** What the sweep when the container was last removed for good ({@link #removeAll}) did. */
    private ProtectedSweep.Outcome lastSweep = ProtectedSweep.Outcome.NONE;

    SandboxContainer(
            DockerClient docker, ContainerSpec spec, ProtectedMounts protectedMounts, DockerWorkspace workspace) {
        this.docker = docker;
        this.spec = spec;
        this.protectedMounts = protectedMounts;
        this.workspace = workspace;
    }

    /**
     * Starts the container on a thread of its own, so that it is ready when the first command wants it (the model is
     * thinking meanwhile), then passes its id to {@code warmUp} on that thread, outside this container's lock. A
     * command that comes while it starts waits for it, as it would for its own start; if it fails, the first command is
     * refused with the same error as if it had tried itself. A {@link #close} meanwhile waits for the start and removes
     * what it made.
     *
     * @return done when the start and the warm-up are over, whatever their outcome
     */
    CompletableFuture<Void> startAhead(Consumer<String> warmUp) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread starting = new Thread(
                () -> {
                    try {
                        String started = startIfNeverTried();
                        if (started != null) {
                            warmUp.accept(started);
                        }
                    } finally {
                        done.complete(null);
                    }
                },
                "dockhand-sandbox-start");
        starting.setDaemon(true);
        starting.start();
        return done;
    }

    /** The started container's id; null when a start was tried before, the sandbox is closed, or the start failed. */
    private synchronized String startIfNeverTried() {
        if (startTried || closed) {
            return null;
        }
        try {
            return ensureStarted();
        } catch (IOException e) {
            log.info("the sandbox container could not start ahead of the first command", e);
            startAheadFailure = e;
            return null;
        }
    }

    /** The container's id, starting it first if there is none. */
    synchronized String ensureStarted() throws IOException {
        if (id != null) {
            return id;
        }
        if (closed) {
            throw new IOException("the sandbox is closed");
        }
        if (startAheadFailure != null) {
            IOException failure = startAheadFailure;
            startAheadFailure = null;
            // Thrown here rather than tried again: the user sees why the start failed, and the next command tries anew.
            throw new IOException(failure.getMessage(), failure.getCause());
        }
        startTried = true;
        if (removeOnShutdown == null) {
            // Before the container exists, so that an exit while it starts (ahead, on another thread) waits for it and
            // removes it.
            // Bounded by the limit alone, without waiting on for a live engine: at Ctrl-C or a kill the user is
            // leaving now, and a container left behind is removed at the next start.
            Thread hook = new Thread(
                    () -> Bounded.run("dockhand-remove-sandbox-at-exit", removeLimit, this::removeAll),
                    "dockhand-remove-sandbox");
            try {
                Runtime.getRuntime().addShutdownHook(hook);
            } catch (IllegalStateException exiting) {
                throw new IOException("the sandbox container could not start: Dockhand is exiting", exiting);
            }
            removeOnShutdown = hook;
        }
        sweepBeforeStart();
        try {
            String created = docker.createContainerCmd(spec.image())
                    .withCmd("sleep", "infinity")
                    .withUser(spec.user())
                    .withWorkingDir(spec.workingDir())
                    .withEnv(spec.env())
                    .withLabels(spec.labels())
                    .withHostConfig(workspace.hostConfig())
                    .exec()
                    .getId();
            try {
                docker.startContainerCmd(created).exec();
            } catch (RuntimeException e) {
                // The engine refuses some settings only at the start (a missing network): what it created goes.
                removeQuietly(created);
                throw e;
            }
            id = created;
        } catch (RuntimeException e) {
            throw new IOException("the sandbox container could not start: " + DockerSandbox.reason(e), e);
        }
        try {
            workspace.started(files(id));
        } catch (IOException | RuntimeException e) {
            remove();
            throw new IOException(
                    "the workspace could not be copied into the sandbox container: " + DockerSandbox.reason(e), e);
        }
        oomKills = readOomKills(id);
        return id;
    }

    /** Removes the container and starts a fresh one on the same mounts; returns the fresh one's id. */
    synchronized String replace() throws IOException {
        log.warn("the sandbox container {} stopped answering; replacing it", id);
        remove();
        return ensureStarted();
    }

    /** Removes the container, if there is one; the next {@link #ensureStarted} starts a fresh one. */
    synchronized void remove() {
        if (id == null) {
            return;
        }
        if (!removeQuietly(id)) {
            leftRunning = true;
        }
        id = null;
    }

    /** Whether the container is gone: removed, or unknown to the engine. */
    private boolean removeQuietly(String container) {
        try {
            docker.removeContainerCmd(container).withForce(true).exec();
            return true;
        } catch (NotFoundException alreadyGone) {
            return true;
        } catch (RuntimeException e) {
            log.warn("could not remove sandbox container {}", container, e);
            return false;
        }
    }

    /**
     * Puts the protected paths back as the session found them (see {@link ProtectedSweep}) where no command can race
     * it: in the container while one runs; on this machine when none does, holding this container's lock so that none
     * starts meanwhile. With the sync transport no command writes this machine's files, so always here. What the sweep
     * before a container's start did is reported here too, and so is each folder that could not be checked (see
     * {@link ProtectedMounts#steps}), at every sweep while it cannot.
     */
    ProtectedSweep.Outcome sweep() {
        ProtectedSweep.Outcome before;
        synchronized (this) {
            before = sweptBeforeStart;
            sweptBeforeStart = ProtectedSweep.Outcome.NONE;
        }
        WorkspaceTransport transport = workspace.transport();
        List<ProtectedSweep.Step> steps = protectedMounts.steps(transport);
        if (steps.isEmpty()) {
            return before;
        }
        if (transport == WorkspaceTransport.SYNC) {
            return before.plus(ProtectedSweep.onHost(steps));
        }
        String running;
        synchronized (this) {
            running = id;
            if (running == null) {
                return before.plus(sweepHere(steps));
            }
        }
        ProtectedSweep.Outcome inside = ProtectedSweep.inContainer(steps, files(running));
        // An unchecked folder's step always fails; only a step the container failed to take asks whether it stopped.
        boolean tookAll = inside.failed().size() == ProtectedSweep.unchecked(steps);
        return before.plus(tookAll ? inside : ifStopped(running, inside));
    }

    /**
     * After the container {@code running} could not take some steps: if it has stopped (a command can stop it, killing
     * its {@code sleep} as the same user), it is removed and what is left to do is done on this machine, where nothing
     * of the sandbox can write any more; else {@code inside} as it is, and the next sweep tries again.
     */
    private synchronized ProtectedSweep.Outcome ifStopped(String running, ProtectedSweep.Outcome inside) {
        if (running.equals(id) && !runs(running)) {
            log.warn("the sandbox container {} stopped; removing it to put the protected paths back here", running);
            remove();
        }
        if (id != null) {
            return inside;
        }
        ProtectedSweep.Outcome done = new ProtectedSweep.Outcome(inside.removed(), inside.restored(), List.of());
        List<ProtectedSweep.Step> left = protectedMounts.steps(workspace.transport());
        return left.isEmpty() ? done : done.plus(sweepHere(left));
    }

    /** Whether the engine says {@code container} runs; yes when it cannot tell, so that nothing is done here. */
    private boolean runs(String container) {
        try {
            return !Boolean.FALSE.equals(
                    docker.inspectContainerCmd(container).exec().getState().getRunning());
        } catch (NotFoundException gone) {
            return false;
        } catch (RuntimeException e) {
            log.warn("could not ask the engine whether the sandbox container {} runs", container, e);
            return true;
        }
    }

    /**
     * Puts back, on this machine, what a command changed before the last container stopped, as no container runs now:
     * a folder a command put in place of a protected link would otherwise stay on the host for good, no mount keeping
     * it away from the fresh container's sweeps (see {@link ProtectedMounts#mounts}). Reported by the next {@link
     * #sweep}.
     */
    private void sweepBeforeStart() {
        if (workspace.transport() != WorkspaceTransport.MOUNT) {
            return;
        }
        // A folder that could not be checked is reported by the sweep after the command, once.
        List<ProtectedSweep.Step> steps = ProtectedSweep.toTake(protectedMounts.steps(WorkspaceTransport.MOUNT));
        if (!steps.isEmpty()) {
            sweptBeforeStart = sweptBeforeStart.plus(sweepHere(steps));
        }
    }

    /** The steps on this machine, now that no container runs; none when one the engine failed to remove may. */
    private ProtectedSweep.Outcome sweepHere(List<ProtectedSweep.Step> steps) {
        if (leftRunning) {
            log.error("not putting the protected paths back on this machine: a sandbox container the engine could not"
                    + " remove may still run commands there");
            return ProtectedSweep.Outcome.failed(steps);
        }
        return ProtectedSweep.onHost(steps);
    }

    /**
     * Kills every process of the exec marked {@code marker} in container {@code execContainer} (see {@link
     * SweepScript}); nothing when that container has already been replaced or removed. If the container cannot even
     * start the killer (its process limit is full), or the killer cannot finish (a fork bomb outran it), the container
     * itself is removed, and the next command starts a fresh one.
     *
     * @return false when the container had to be removed
     */
    boolean killMarked(String execContainer, String marker) {
        if (!execContainer.equals(id())) {
            return true;
        }
        String said;
        try {
            said = DockerExec.output(docker, execContainer, SweepScript.killer(marker));
        } catch (RuntimeException e) {
            said = e.toString();
        }
        if (said.strip().equals(SweepScript.CLEAN)) {
            return true;
        }
        if (ending) {
            // The session's last copy back still needs the container; its removal comes right after.
            log.warn("could not kill a command's processes ({}) as the session ended", said.strip());
            return false;
        }
        log.warn("could not kill a command's processes ({}); removing the sandbox container", said.strip());
        remove();
        return false;
    }

    /**
     * The session is ending: a kill that cannot finish no longer removes the container (the last copy back reads it
     * first, then the close removes it).
     */
    void ending() {
        ending = true;
    }

    /** The files of container {@code container}, through the engine, as the container's user. */
    ContainerFiles files(String container) {
        int[] ids = spec.ids();
        return new ContainerFiles(docker, container, ids[0], ids[1]);
    }

    /** The container's id, or null when none runs. */
    synchronized String id() {
        return id;
    }

    /**
     * Removes the container; then, with every process that could write gone, puts the protected paths back as the
     * session found them (see {@link #sweep}), and removes the empty folders mounted over missing ones. Also what the
     * shutdown hook runs.
     */
    synchronized void removeAll() {
        remove();
        List<ProtectedSweep.Step> steps = protectedMounts.steps(workspace.transport());
        lastSweep = steps.isEmpty() ? ProtectedSweep.Outcome.NONE : sweepHere(steps);
        protectedMounts.removePlaceholders();
    }

    /**
     * What the sweep once the container was removed (see {@link #removeAll}) could not do, for the user, one sentence
     * each: no command's result is left to carry it at the end of the session.
     */
    synchronized List<String> leftOnHost() {
        List<String> failed = lastSweep.failed();
        if (failed.isEmpty()) {
            return List.of();
        }
        return List.of("Could not put back or remove " + String.join(", ", failed) + ", protected paths that a command"
                + " in the sandbox changed: git or an editor on this machine may run what is there now. Look at them"
                + " before using git or an editor in this project.");
    }

    /** {@link #removeAll}, and forgets the shutdown hook that would have; no container starts after it. */
    synchronized void close() {
        closed = true;
        removeAll();
        if (removeOnShutdown != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(removeOnShutdown);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to; it removes nothing twice.
            }
        }
    }

    /**
     * The container's id as last known, without waiting for a start or removal under way (which may be stalled on the
     * engine); null when none was started.
     */
    String knownId() {
        return id;
    }

    void removeLimit(Duration limit, Duration ping) {
        removeLimit = limit;
        pingLimit = ping;
    }

    /** Whether the engine answers a ping: work on it that takes long is slow, not stalled. */
    boolean engineAnswers() {
        return Bounded.answers(docker, pingLimit);
    }

    /**
     * Gives up on the container without waiting for the engine: the close stalled. No container starts after this,
     * and the shutdown hook is dropped, since it would only wait on the same engine again at exit.
     */
    void abandon() {
        closed = true;
        Thread hook = removeOnShutdown;
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running; it is bounded too.
            }
        }
    }

    /** Whether the kernel's OOM killer struck in the container since the last look. */
    synchronized boolean oomKilledSinceLastLook() {
        if (id == null) {
            return false;
        }
        long now = readOomKills(id);
        boolean struck = now > oomKills;
        oomKills = now;
        return struck;
    }

    private long readOomKills(String container) {
        try {
            String counters = DockerExec.output(
                    docker,
                    container,
                    List.of("cat", "/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"));
            Matcher matcher = OOM_KILLS.matcher(counters);
            return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Removes sandbox containers of this host whose owning process has ended (killed, crashed). */
    void removeOrphans(List<JsonNode> sandboxContainers) {
        for (JsonNode container : sandboxContainers) {
            String orphan = container.path("Id").asText();
            JsonNode labels = container.path("Labels");
            if (!HostIdentity.hostname()
                    .equals(labels.path(ContainerSpec.OWNER_HOST).asText(null))) {
                continue;
            }
            try {
                long pid = Long.parseLong(labels.path(ContainerSpec.OWNER_PID).asText("0"));
                long started =
                        Long.parseLong(labels.path(ContainerSpec.OWNER_STARTED).asText("0"));
                if (!HostIdentity.alive(pid, started)) {
                    log.info("removing sandbox container {} left by process {}", orphan, pid);
                    docker.removeContainerCmd(orphan).withForce(true).exec();
                }
            } catch (NumberFormatException | DockerException e) {
                log.warn("could not remove leftover container {}", orphan, e);
            }
        }
    }
}
