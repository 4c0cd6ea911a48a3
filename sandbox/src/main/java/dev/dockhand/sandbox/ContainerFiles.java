package dev.dockhand.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectExecResponse;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container's side of a synced root, through the engine's API only (nothing of the host is shared with it): a
 * listing of the root by one {@code find}, files put in by the engine's archive upload, files taken out by one
 * {@code tar} whose output is read as an archive, and paths removed by {@code rm}. The helper commands run as the
 * container's user and need GNU find and tar in the image. Every name is passed as an argument, never through a
 * shell, and what comes back is only ever read as data. Not final: tests stand a folder of this machine in for the
 * container, to order the sync's steps against other writers.
 */
class ContainerFiles {
    private static final Logger log = LoggerFactory.getLogger(ContainerFiles.class);

    /** One record per path: kind, size, status-change time, mode, path; then the link's target; each NUL-ended. */
    private static final String FORMAT = "%y %s %C@ %m %P\\0%l\\0";

    /** At most this many bytes of names per helper command, well inside the kernel's limit on arguments. */
    private static final int ARGUMENT_BYTES = 100_000;
    /** The most a listing of a root may take in memory, and the most paths it may name. */
    static final long MAX_LISTING_BYTES = 64L << 20;

    static final int MAX_LISTING_ENTRIES = 1_000_000;
    /** What tar adds to each path beside its content: headers, long-name records, padding. */
    private static final long TAR_OVERHEAD = 3 * 512;

    /** How long one helper command may take: a copy of a large file over a slow link takes a while. */
    private static final long HELPER_MINUTES = 10;

    private final DockerClient docker;
    private final String container;
    private final int uid;
    private final int gid;

    ContainerFiles(DockerClient docker, String container, int uid, int gid) {
        this.docker = docker;
        this.container = container;
        this.uid = uid;
        this.gid = gid;
    }

    /** Every path under {@code root} in the container, in path order, leaving out the folders in {@code pruned}. */
    TreeMap<String, SyncEntry> list(Path root, Collection<String> pruned) throws IOException {
        List<String> command = new ArrayList<>(List.of("find", root.toString(), "-mindepth", "1"));
        if (!pruned.isEmpty()) {
            command.add("(");
            boolean first = true;
            for (String folder : pruned) {
                if (!first) {
                    command.add("-o");
                }
                command.addAll(List.of("-path", escapeGlob(root + "/" + folder)));
                first = false;
            }
            command.addAll(List.of(")", "-prune", "-o"));
        }
        command.addAll(List.of("-printf", FORMAT));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CappedOutput capped = new CappedOutput(out, MAX_LISTING_BYTES);
        run(command, capped);
        if (capped.exceeded()) {
            throw new IOException("the listing of " + root + " in the sandbox container is larger than "
                    + SyncedRoot.size(MAX_LISTING_BYTES) + "; nothing was copied back and the container is left as"
                    + " it is (remove the files the command made, or add their folders to .gitignore)");
        }
        TreeMap<String, SyncEntry> entries = parse(out.toString(StandardCharsets.UTF_8), "");
        if (entries.size() > MAX_LISTING_ENTRIES) {
            throw new IOException(root + " in the sandbox container holds " + entries.size() + " paths, more than "
                    + MAX_LISTING_ENTRIES + "; nothing was copied back and the container is left as it is (remove the"
                    + " files the command made, or add their folders to .gitignore)");
        }
        return entries;
    }

    /** The entries of those of {@code paths} that exist in the container. */
    TreeMap<String, SyncEntry> stat(Path root, Collection<String> paths) throws IOException {
        TreeMap<String, SyncEntry> entries = new TreeMap<>();
        for (List<String> chunk : chunks(paths)) {
            List<String> command = new ArrayList<>(List.of("find"));
            chunk.forEach(path -> command.add(root + "/" + path));
            command.addAll(List.of("-maxdepth", "0", "-printf", FORMAT.replace("%P", "%p")));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            // A path the container no longer has is reported on stderr and left out: that is the answer.
            run(command, out);
            entries.putAll(parse(out.toString(StandardCharsets.UTF_8), root + "/"));
        }
        return entries;
    }

    /** Removes {@code paths} (relative to {@code root}) in the container, folders with all they hold. */
    void remove(Path root, Collection<String> paths) throws IOException {
        for (List<String> chunk : chunks(paths)) {
            List<String> command = new ArrayList<>(List.of("rm", "-rf", "--"));
            chunk.forEach(path -> command.add(root + "/" + path));
            int status = run(command, OutputStream.nullOutputStream());
            if (status != 0) {
                throw new IOException("the sandbox container could not remove files (rm exited " + status + ")");
            }
        }
    }

    /**
     * Copies {@code paths} of the host's {@code root} (with {@code entries} saying what each is) into the container,
     * owned by the container's user; with {@code folders}, first the folders leading to the root as the host has them.
     */
    void put(Path root, Collection<String> paths, Map<String, SyncEntry> entries, boolean folders) throws IOException {
        PipedInputStream in = new PipedInputStream(1 << 16);
        PipedOutputStream pipe = new PipedOutputStream(in);
        CompletableFuture<Void> written = CompletableFuture.runAsync(
                () -> {
                    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(pipe)) {
                        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
                        if (folders) {
                            writeFolders(tar, root);
                        }
                        for (String path : paths) {
                            writeEntry(tar, root, path, entries.get(path));
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                },
                ContainerFiles::writerThread);
        try (in) {
            docker.copyArchiveToContainerCmd(container)
                    .withRemotePath("/")
                    .withTarInputStream(in)
                    .exec();
        } catch (RuntimeException e) {
            throw new IOException("could not copy files into the sandbox container: " + DockerSandbox.reason(e), e);
        }
        try {
            written.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new IOException("could not read the files to copy into the sandbox container", e.getCause());
        }
    }

    /** The archive is written on a thread of its own while the engine's client reads it from the pipe. */
    private static void writerThread(Runnable writer) {
        Thread thread = new Thread(writer, "dockhand-sync-archive");
        thread.setDaemon(true);
        thread.start();
    }

    /** The folders from {@code /} down to {@code root}, with the host's owners and modes ({@code /tmp} stays 1777). */
    private static void writeFolders(TarArchiveOutputStream tar, Path root) throws IOException {
        Path folder = root.getRoot();
        for (Path name : root) {
            folder = folder.resolve(name);
            Map<String, Object> unix = Files.readAttributes(folder, "unix:mode,uid,gid");
            TarArchiveEntry entry = new TarArchiveEntry(name(folder) + "/", TarConstants.LF_DIR);
            entry.setMode(040000 | ((Integer) unix.get("mode") & 07777));
            entry.setIds((Integer) unix.get("uid"), (Integer) unix.get("gid"));
            tar.putArchiveEntry(entry);
            tar.closeArchiveEntry();
        }
    }

    private void writeEntry(TarArchiveOutputStream tar, Path root, String path, SyncEntry known) throws IOException {
        Path file = root.resolve(path);
        String name = name(file);
        TarArchiveEntry entry;
        switch (known.type()) {
            case DIR -> {
                entry = new TarArchiveEntry(name + "/", TarConstants.LF_DIR);
                entry.setMode(040000 | known.mode());
            }
            case LINK -> {
                entry = new TarArchiveEntry(name, TarConstants.LF_SYMLINK);
                entry.setLinkName(known.link());
                entry.setMode(0120777);
            }
            default -> {
                writeFile(tar, file, name, known);
                return;
            }
        }
        entry.setIds(uid, gid);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
    }

    /**
     * A regular file, opened without following a link; if it changed size since the walk, the size at opening counts
     * (the next command's check sees the change and copies it again).
     */
    private void writeFile(TarArchiveOutputStream tar, Path file, String name, SyncEntry known) throws IOException {
        SeekableByteChannel channel;
        try {
            channel = Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            log.warn("could not read {}; it is not copied into the sandbox", file, e);
            return;
        }
        try (channel;
                InputStream in = Channels.newInputStream(channel)) {
            long size = channel.size();
            TarArchiveEntry entry = new TarArchiveEntry(name, TarConstants.LF_NORMAL);
            entry.setSize(size);
            entry.setMode(0100000 | known.mode());
            entry.setIds(uid, gid);
            entry.setModTime(Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS));
            tar.putArchiveEntry(entry);
            long copied = copy(in, tar, size);
            for (; copied < size; copied++) {
                tar.write(0);
            }
            tar.closeArchiveEntry();
        }
    }

    private static long copy(InputStream in, OutputStream out, long limit) throws IOException {
        byte[] buffer = new byte[1 << 16];
        long copied = 0;
        while (copied < limit) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, limit - copied));
            if (read < 0) {
                break;
            }
            out.write(buffer, 0, read);
            copied += read;
        }
        return copied;
    }

    /** What an archive entry holds when it is read back. */
    interface Receiver {
        void accept(String path, TarArchiveEntry entry, InputStream content) throws IOException;
    }

    /**
     * Takes {@code paths} out of the container's {@code root} as one archive (links as links, hard links as separate
     * files), spooled to a temporary file, and hands each entry named in {@code paths} to {@code receiver}; any
     * other entry (the container is not trusted to send only what was asked) is skipped.
     */
    void fetch(Path root, Collection<String> paths, long maxBytes, Receiver receiver) throws IOException {
        Set<String> asked = Set.copyOf(paths);
        long left = maxBytes;
        for (List<String> chunk : chunks(paths)) {
            Path spool = Files.createTempFile("dockhand-sync-", ".tar");
            try {
                // The container may grow its files after they were listed: the spool holds no more than the limit.
                CappedOutput capped;
                try (OutputStream out = Files.newOutputStream(spool)) {
                    capped = new CappedOutput(out, left + TAR_OVERHEAD * chunk.size());
                    List<String> command = new ArrayList<>(List.of(
                            "tar", "-C", root.toString(), "-cf", "-", "--no-recursion", "--hard-dereference", "--"));
                    command.addAll(chunk);
                    // tar exits 1 when a file changed or vanished while it was read; what it did send is good.
                    run(command, capped);
                }
                if (capped.exceeded()) {
                    throw new IOException("the files to copy back from the sandbox container add up to more than the"
                            + " limit of " + SyncedRoot.size(maxBytes) + "; the rest was not copied back (raise "
                            + SyncLimits.MAX_TOTAL + " or remove large files in the sandbox)");
                }
                left -= Math.max(0, Files.size(spool) - TAR_OVERHEAD * chunk.size());
                try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(spool))) {
                    for (TarArchiveEntry entry = tar.getNextTarEntry(); entry != null; entry = tar.getNextTarEntry()) {
                        String path = entry.getName().replaceAll("/+$", "");
                        if (asked.contains(path)) {
                            receiver.accept(path, entry, tar);
                        } else {
                            log.warn("the sandbox container sent {}, which was not asked for; skipped", path);
                        }
                    }
                }
            } finally {
                Files.deleteIfExists(spool);
            }
        }
    }

    static FileTime modified(TarArchiveEntry entry) {
        return FileTime.from(entry.getLastModifiedDate().toInstant());
    }

    /** Runs a helper command in the container, its stdout to {@code out}; returns its exit status. */
    int run(List<String> command, OutputStream out) throws IOException {
        return run(command, out, Duration.ofMinutes(HELPER_MINUTES));
    }

    /** {@link #run(List, OutputStream)}, waiting at most {@code limit} for the command to end. */
    int run(List<String> command, OutputStream out, Duration limit) throws IOException {
        StringBuilder errors = new StringBuilder();
        String exec;
        try {
            exec = docker.execCreateCmd(container)
                    .withCmd(command.toArray(String[]::new))
                    .withAttachStdin(false)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false)
                    .exec()
                    .getId();
        } catch (RuntimeException e) {
            throw new IOException(
                    "the sandbox container could not run " + command.get(0) + ": " + DockerSandbox.reason(e), e);
        }
        IOException[] failed = {null};
        try (ResultCallback.Adapter<Frame> stream = docker.execStartCmd(exec).exec(new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                if (frame.getStreamType() == StreamType.STDERR) {
                    if (errors.length() < 2000) {
                        errors.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                    return;
                }
                try {
                    out.write(frame.getPayload());
                } catch (IOException e) {
                    failed[0] = e;
                }
            }
        })) {
            if (!stream.awaitCompletion(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException(
                        command.get(0) + " in the sandbox container took over " + limit.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while copying files of the sandbox container", e);
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        Long status = exitCode(exec);
        if (errors.length() > 0) {
            log.debug(
                    "{} in the sandbox container said: {}",
                    command.get(0),
                    errors.toString().strip());
        }
        return status == null ? -1 : status.intValue();
    }

    /**
     * The exec's exit status, once the engine has it: its output stream can end a moment before the process does (see
     * {@link DockerExec#await}), so a running exec is asked again, for at most five seconds.
     */
    private Long exitCode(String exec) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            InspectExecResponse inspected = docker.inspectExecCmd(exec).exec();
            if (!Boolean.TRUE.equals(inspected.isRunning()) || System.nanoTime() > deadline) {
                return inspected.getExitCodeLong();
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a command of the sandbox container", e);
            }
        }
    }

    /**
     * Parses {@link #FORMAT}'s records into entries by path, less {@code prefix}; kinds other than file, folder and
     * link are left out.
     */
    static TreeMap<String, SyncEntry> parse(String listing, String prefix) {
        TreeMap<String, SyncEntry> entries = new TreeMap<>();
        String[] fields = listing.split("\0", -1);
        for (int i = 0; i + 1 < fields.length; i += 2) {
            String[] parts = fields[i].split(" ", 5);
            if (parts.length < 5 || !parts[4].startsWith(prefix)) {
                continue;
            }
            String path = parts[4].substring(prefix.length());
            if (!plain(path)) {
                continue;
            }
            SyncEntry.Type type =
                    switch (parts[0]) {
                        case "f" -> SyncEntry.Type.FILE;
                        case "d" -> SyncEntry.Type.DIR;
                        case "l" -> SyncEntry.Type.LINK;
                        default -> null;
                    };
            if (type == null) {
                continue;
            }
            try {
                long size = type == SyncEntry.Type.FILE ? Long.parseLong(parts[1]) : 0;
                int mode = type == SyncEntry.Type.LINK ? 0777 : Integer.parseInt(parts[3], 8) & 07777;
                String stamp = type == SyncEntry.Type.DIR ? "" : parts[2];
                entries.put(path, new SyncEntry(type, size, stamp, mode, fields[i + 1]));
            } catch (NumberFormatException e) {
                log.warn("unreadable listing line from the sandbox container: {}", fields[i]);
            }
        }
        return entries;
    }

    /**
     * Whether {@code path} names something inside the root: relative, with no empty, {@code .} or {@code ..} part.
     * A listing is the container's word, and a path that climbs out of the root is never taken from it.
     */
    static boolean plain(String path) {
        if (path.isEmpty() || path.startsWith("/")) {
            return false;
        }
        for (String name : path.split("/", -1)) {
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** The name an archive gives {@code path}: absolute, without the leading slash. */
    private static String name(Path path) {
        return path.toString().substring(1);
    }

    /** A path as a {@code find -path} pattern that matches only itself. */
    static String escapeGlob(String path) {
        return path.replaceAll("([\\\\*?\\[\\]])", "\\\\$1");
    }

    private static List<List<String>> chunks(Collection<String> paths) {
        List<List<String>> chunks = new ArrayList<>();
        List<String> chunk = new ArrayList<>();
        int bytes = 0;
        for (String path : paths) {
            if (!chunk.isEmpty() && bytes + path.length() > ARGUMENT_BYTES) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                bytes = 0;
            }
            chunk.add(path);
            bytes += path.length() + 1;
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk);
        }
        return chunks;
    }
}
