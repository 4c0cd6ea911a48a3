package dev.dockhand.core.checkpoint;

import dev.dockhand.core.PrivateFiles;
import dev.dockhand.core.session.Sessions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of one workspace, under {@code <root>/<workspace-id>/}: a shadow repository ({@code git/}) holding
 * the snapshots, and a log ({@code checkpoints.jsonl}) naming each one. A checkpoint is taken before a mutating call
 * ({@link #begin}) and completed after it ({@link #finish}) with the files the call changed, whatever changed them.
 * Restoring puts back only the files the taken-back calls changed, each as it was before the first of those calls
 * that changed it; a file someone changed by hand since the last of those calls is named in the plan first.
 */
public final class CheckpointStore implements AutoCloseable {
    /** The default {@code checkpoints.maxFileSize}: larger files are not recorded. */
    public static final long DEFAULT_MAX_FILE_SIZE = 10L * 1024 * 1024;
    /** Checkpoints older than this are pruned. */
    public static final Duration MAX_AGE = Duration.ofDays(30);
    /** A workspace's store above this many bytes loses its oldest checkpoints. */
    public static final long MAX_BYTES = 2L * 1024 * 1024 * 1024;
    /** Objects younger than this are kept by pruning whatever refers to them: another Dockhand may be writing them. */
    private static final Duration PRUNE_GRACE = Duration.ofHours(1);

    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final Path folder;
    private final ShadowRepository shadow;
    private final CheckpointLog log;

    private CheckpointStore(Path folder, ShadowRepository shadow) {
        this.folder = folder;
        this.shadow = shadow;
        this.log = new CheckpointLog(folder.resolve("checkpoints.jsonl"));
    }

    /** Where the checkpoints of {@code workspace} are kept under {@code root} ({@code ~/.dockhand/checkpoints}). */
    public static Path folder(Path root, Path workspace) {
        return root.resolve(Sessions.workspaceId(workspace));
    }

    /**
     * Opens (creating on first use) the store of {@code workspace}.
     *
     * @param excluded folders inside the workspace never recorded (Dockhand's own folder, when it lies there)
     */
    public static CheckpointStore open(Path root, Path workspace, long maxFileSize, List<Path> excluded)
            throws IOException {
        Path folder = folder(root, workspace);
        PrivateFiles.createFolders(folder);
        List<Path> skipped = new ArrayList<>(excluded);
        skipped.add(root);
        return new CheckpointStore(
                folder, ShadowRepository.open(folder.resolve("git"), workspace, maxFileSize, skipped));
    }

    public Path folder() {
        return folder;
    }

    /** Tests only: {@code hook} runs each time a restore has checked a file's folders and is about to change it. */
    void beforeChange(Runnable hook) {
        shadow.beforeChange = hook;
    }

    /**
     * Takes a snapshot and keeps nothing of it but the index it leaves: the first snapshot of a workspace reads every
     * file, and done at session start on a spare thread it leaves the checkpoints before calls only the changes to
     * read.
     */
    public void warm() throws IOException {
        shadow.snapshot();
    }

    /** Records the workspace as it is, before the call described; the returned checkpoint has no changes yet. */
    public synchronized Checkpoint begin(
            String sessionId, int turn, String userMessage, String tool, String callId, String summary)
            throws IOException {
        ObjectId before = shadow.snapshot();
        Instant now = Instant.now();
        String id = ID_TIME.format(now) + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong(0x10000000L, 0xffffffffL));
        Checkpoint checkpoint = new Checkpoint(
                id,
                sessionId,
                now,
                turn,
                userMessage,
                tool,
                callId,
                summary,
                before.name(),
                Optional.empty(),
                List.of());
        shadow.keep(ref(id), before, Optional.empty());
        log.began(checkpoint);
        return checkpoint;
    }

    /** Records what the call changed: the workspace now against the checkpoint's snapshot. */
    public synchronized Checkpoint finish(Checkpoint checkpoint) throws IOException {
        ObjectId after = shadow.snapshot();
        Checkpoint finished =
                checkpoint.finished(after.name(), shadow.changed(ObjectId.fromString(checkpoint.before()), after));
        if (!after.name().equals(checkpoint.before())) {
            // A call that changed nothing leaves its checkpoint's commit as it is: that commit keeps the same tree.
            Optional<ObjectId> beforeCommit = shadow.ref(ref(checkpoint.id()));
            shadow.keep(ref(checkpoint.id()), after, beforeCommit);
        }
        log.finished(finished);
        return finished;
    }

    private static String ref(String id) {
        return "refs/checkpoints/" + id;
    }

    /** Every checkpoint of the workspace, oldest first, undone ones too. */
    public synchronized List<Checkpoint> list() throws IOException {
        return log.read().checkpoints();
    }

    /** The checkpoint {@code id}, if the workspace has it. */
    public synchronized Optional<Checkpoint> find(String id) throws IOException {
        return list().stream().filter(checkpoint -> checkpoint.id().equals(id)).findFirst();
    }

    /** The checkpoints of a session that no undo or rewind has taken back, oldest first. */
    public synchronized List<Checkpoint> live(String sessionId) throws IOException {
        CheckpointLog.Contents contents = log.read();
        return contents.checkpoints().stream()
                .filter(checkpoint -> checkpoint.sessionId().equals(sessionId))
                .filter(checkpoint -> contents.cuts().stream().noneMatch(cut -> cut.covers(checkpoint)))
                .toList();
    }

    /** Marks the session's checkpoints from {@code turn} on as taken back, so the next undo goes further back. */
    public synchronized void cut(String sessionId, int turn) throws IOException {
        cut(sessionId, turn, Instant.EPOCH);
    }

    /**
     * Marks the session's checkpoints from {@code turn} on and taken at {@code since} or later as taken back: a
     * restore from a call in the middle of a turn leaves the turn's earlier calls live.
     */
    public synchronized void cut(String sessionId, int turn, Instant since) throws IOException {
        log.cut(new CheckpointLog.Cut(sessionId, turn, since, Instant.now()));
    }

    /**
     * How much older than a call a file it lacks must be to count as left out rather than created: a file system
     * stamps times from a coarse clock that may lag the one the checkpoint's time came from.
     */
    private static final java.time.Duration CLOCK_SLACK = java.time.Duration.ofSeconds(2);

    /** The checkpoint {@code from} and every later one of the workspace, any session's: what a restore takes back. */
    public synchronized List<Checkpoint> since(Checkpoint from) throws IOException {
        List<Checkpoint> all = list();
        int start = all.indexOf(all.stream()
                .filter(checkpoint -> checkpoint.id().equals(from.id()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no checkpoint " + from.id())));
        return all.subList(start, all.size());
    }

    /**
     * What restoring the files {@code undone} changed would do: each file as it was before the first of them that
     * changed it. Files already in that state are left out.
     *
     * <p>A call that never finished (Dockhand was stopped during it) has no snapshot after it: the next checkpoint's in
     * the log, taken before the next call, stands for it, so a file changed by hand since then is still named. Without
     * a next checkpoint, what it changed is whatever differs now, and nothing tells a hand edit from the call's.
     *
     * @param undone checkpoints, oldest first
     */
    public synchronized RestorePlan plan(List<Checkpoint> undone) throws IOException {
        Map<String, Checkpoint> first = new TreeMap<>();
        Map<String, Optional<String>> leftBy = new TreeMap<>();
        ObjectId now = null;
        List<Checkpoint> logged = null;
        for (Checkpoint checkpoint : undone) {
            List<String> files = checkpoint.files();
            Optional<String> after = checkpoint.after();
            if (after.isEmpty()) {
                if (logged == null) {
                    logged = list();
                }
                after = nextInLog(logged, checkpoint).map(Checkpoint::before);
                ObjectId until;
                if (after.isPresent()) {
                    until = ObjectId.fromString(after.get());
                } else {
                    if (now == null) {
                        now = shadow.snapshot();
                    }
                    until = now;
                }
                files = shadow.changed(ObjectId.fromString(checkpoint.before()), until);
            }
            for (String path : files) {
                first.putIfAbsent(path, checkpoint);
                leftBy.put(path, after);
            }
        }
        List<RestorePlan.FileRestore> restores = new ArrayList<>();
        for (Map.Entry<String, Checkpoint> touched : first.entrySet()) {
            String path = touched.getKey();
            ObjectId from = ObjectId.fromString(touched.getValue().before());
            Optional<ShadowRepository.Entry> target = shadow.file(from, path);
            Optional<String> left = leftBy.get(path);
            Optional<ShadowRepository.Entry> leftEntry =
                    left.isPresent() ? shadow.file(ObjectId.fromString(left.get()), path) : Optional.empty();
            Optional<ShadowRepository.Entry> current = currentOrUnknown(path, List.of(target, leftEntry));
            if (target.equals(current)) {
                continue;
            }
            boolean changedSince = left.isPresent() && !leftEntry.equals(current);
            RestorePlan.Action action = target.isPresent()
                    ? RestorePlan.Action.WRITE
                    : shadow.olderThan(path, touched.getValue().time().minus(CLOCK_SLACK))
                            ? RestorePlan.Action.KEEP
                            : RestorePlan.Action.REMOVE;
            restores.add(new RestorePlan.FileRestore(path, action, changedSince, from.name()));
        }
        return new RestorePlan(restores);
    }

    /**
     * The file as it is now; when it cannot be looked at (a folder on the way made unreadable, an I/O error), an entry
     * matching no recorded version, so the one file is planned as changed since and its restore reports why it failed,
     * while the other files are planned as usual.
     */
    private Optional<ShadowRepository.Entry> currentOrUnknown(
            String path, List<Optional<ShadowRepository.Entry>> compared) {
        try {
            return shadow.current(path, compared);
        } catch (IOException e) {
            LoggerFactory.getLogger(CheckpointStore.class).warn("cannot look at {} for the restore plan", path, e);
            return Optional.of(new ShadowRepository.Entry(ObjectId.zeroId(), FileMode.REGULAR_FILE));
        }
    }

    /** The checkpoint logged right after {@code checkpoint}, any session's. */
    private static Optional<Checkpoint> nextInLog(List<Checkpoint> logged, Checkpoint checkpoint) {
        for (int i = 0; i < logged.size() - 1; i++) {
            if (logged.get(i).id().equals(checkpoint.id())) {
                return Optional.of(logged.get(i + 1));
            }
        }
        return Optional.empty();
    }

    /**
     * What a restore did: the paths written or removed, and those left as they are, each with why (a folder on the way
     * is a link, which may lead out of the workspace, or not a folder; or writing it failed: a folder made read-only,
     * a full disk).
     */
    public record Restored(List<String> restored, Map<String, String> skipped) {
        public Restored {
            restored = List.copyOf(restored);
            skipped = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
        }
    }

    /**
     * Carries the plan out, file by file: a file that cannot be written or removed is listed with why, and the rest
     * are restored all the same, so what was done is always known, never lost to the first failure.
     */
    public synchronized Restored restore(RestorePlan plan) throws IOException {
        List<String> done = new ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        // Removals first, so a file restored where a created folder stood finds the way clear.
        for (RestorePlan.FileRestore file : plan.files()) {
            if (file.action() == RestorePlan.Action.REMOVE) {
                try {
                    shadow.delete(file.path())
                            .ifPresentOrElse(why -> skipped.put(file.path(), why), () -> done.add(file.path()));
                } catch (IOException e) {
                    skipped.put(file.path(), failure("cannot be removed", e));
                }
            }
        }
        for (RestorePlan.FileRestore file : plan.files()) {
            if (file.action() == RestorePlan.Action.WRITE) {
                try {
                    Optional<ShadowRepository.Entry> entry =
                            shadow.file(ObjectId.fromString(file.fromTree()), file.path());
                    if (entry.isEmpty()) {
                        skipped.put(file.path(), "the checkpoint's snapshot " + file.fromTree() + " lacks it");
                        continue;
                    }
                    shadow.write(file.path(), entry.get())
                            .ifPresentOrElse(why -> skipped.put(file.path(), why), () -> done.add(file.path()));
                } catch (IOException e) {
                    skipped.put(file.path(), failure("cannot be written", e));
                }
            }
        }
        return new Restored(done, skipped);
    }

    /** Why a file was not restored, in a few words and without the workspace's absolute path. */
    private static String failure(String what, IOException e) {
        String why;
        if (e instanceof java.nio.file.AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof java.nio.file.FileSystemException system && system.getReason() != null) {
            why = system.getReason();
        } else if (e instanceof java.nio.file.FileSystemException) {
            why = e.getClass().getSimpleName();
        } else {
            why = Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName());
        }
        return what + ": " + why;
    }

    /** A unified diff of the workspace's recorded files, from the state before {@code checkpoint}'s call to now. */
    public synchronized String diff(Checkpoint checkpoint) throws IOException {
        ObjectId now = shadow.snapshot();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DiffFormatter formatter = new DiffFormatter(out)) {
            formatter.setRepository(shadow.repository());
            formatter.format(ObjectId.fromString(checkpoint.before()), now);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** What {@link #prune} removed. */
    public record Pruned(List<String> ids, long bytesBefore, long bytesAfter) {}

    /**
     * Removes the checkpoints older than {@code maxAge}, then the oldest ones while the store holds more than
     * {@code maxBytes}, and the snapshots only they kept.
     */
    public synchronized Pruned prune(Instant now, Duration maxAge, long maxBytes) throws IOException {
        long before = bytes();
        CheckpointLog.Contents contents = log.read();
        List<Checkpoint> kept = new ArrayList<>(contents.checkpoints());
        kept.sort(Comparator.comparing(Checkpoint::time));
        List<String> dropped = new ArrayList<>();
        Instant oldest = now.minus(maxAge);
        while (!kept.isEmpty() && kept.get(0).time().isBefore(oldest)) {
            dropped.add(kept.remove(0).id());
        }
        long size = before;
        if (!dropped.isEmpty()) {
            size = collect(contents, kept, dropped, now);
        }
        while (size > maxBytes && !kept.isEmpty()) {
            // A quarter at a time: each step repacks the store, which is slow on a large one.
            List<String> step = new ArrayList<>();
            int count = Math.max(1, kept.size() / 4);
            for (int i = 0; i < count; i++) {
                step.add(kept.remove(0).id());
            }
            dropped.addAll(step);
            size = collect(contents, kept, step, now);
        }
        return new Pruned(List.copyOf(dropped), before, size);
    }

    /** Forgets {@code dropped}, repacks what is still wanted, and returns the store's size after. */
    private long collect(CheckpointLog.Contents contents, List<Checkpoint> kept, List<String> dropped, Instant now)
            throws IOException {
        for (String id : dropped) {
            shadow.dropRef(ref(id));
        }
        log.rewrite(new CheckpointLog.Contents(List.copyOf(kept), contents.cuts()));
        try {
            Git.wrap(shadow.repository()).gc().setExpire(now.minus(PRUNE_GRACE)).call();
        } catch (GitAPIException e) {
            throw new IOException("repacking the checkpoints failed: " + e.getMessage(), e);
        }
        return bytes();
    }

    /** The bytes the store's objects take on disk. */
    public long bytes() throws IOException {
        Path objects = folder.resolve("git").resolve("objects");
        if (!Files.isDirectory(objects)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(objects)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(file -> {
                        try {
                            return Files.size(file);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .sum();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The distinct turns of {@code checkpoints}, in order, each with its first checkpoint. */
    public static List<Checkpoint> firstOfEachTurn(List<Checkpoint> checkpoints) {
        Map<Integer, Checkpoint> turns = new LinkedHashMap<>();
        Set<Integer> seen = new HashSet<>();
        for (Checkpoint checkpoint : checkpoints) {
            if (seen.add(checkpoint.turn())) {
                turns.put(checkpoint.turn(), checkpoint);
            }
        }
        return List.copyOf(turns.values());
    }

    @Override
    public void close() {
        shadow.close();
    }

    @Override
    public String toString() {
        return "CheckpointStore[" + Objects.toString(folder) + "]";
    }
}
