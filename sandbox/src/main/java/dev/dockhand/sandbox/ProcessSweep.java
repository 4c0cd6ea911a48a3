package dev.dockhand.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds one command's processes on the host through {@code /proc} and kills them: those in the process group its
 * {@code setsid} made, and those whose environment carries its marker, which a process keeps when it leaves the group
 * (a second {@code setsid}, a daemon) and loses only by replacing its environment. Only processes started no earlier
 * than the command are looked at, which spares reading the environment of every other process on the machine. Where
 * there is no {@code /proc} (not Linux) it finds nothing.
 */
final class ProcessSweep {
    private static final Path PROC = Path.of("/proc");
    /** Passes before giving up: a pass kills what it sees, and a fork bomb may fork again before its turn comes. */
    private static final int MAX_PASSES = 50;
    /** In {@code /proc/PID/stat}, counting from the state, the first field after the name: group, start time. */
    private static final int GROUP_FIELD = 2;

    private static final int START_FIELD = 19;

    private final long groupId;
    private final byte[] entry;
    private final long notBefore;
    private final long self = ProcessHandle.current().pid();

    /**
     * @param root the command's main process, still running or not, whose pid is its group's id under {@code setsid}
     * @param marker the {@code NAME=value} entry in the command's environment
     */
    ProcessSweep(long root, String marker) {
        this.groupId = root;
        this.entry = ("\0" + marker + "\0").getBytes(StandardCharsets.UTF_8);
        String[] stat = stat(PROC.resolve(Long.toString(root)));
        this.notBefore = stat == null ? 0 : Long.parseLong(stat[START_FIELD]);
    }

    static boolean available() {
        return Files.isReadable(PROC.resolve("self/environ"));
    }

    /**
     * Kills, with SIGKILL, every process in the group or with the marker in its environment, pass after pass until
     * one finds none; never this JVM. A process is in that group only if the root led one ({@code setsid}), so the
     * group id is safe to match even without it.
     *
     * @return whether a pass found none; false after {@link #MAX_PASSES} passes
     */
    boolean killAll() {
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            List<Long> found = find();
            if (found.isEmpty()) {
                return true;
            }
            found.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
        return false;
    }

    private List<Long> find() {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[1-9]*")) {
            for (Path process : processes) {
                long pid = Long.parseLong(process.getFileName().toString());
                if (pid != self && belongs(process)) {
                    found.add(pid);
                }
            }
        } catch (IOException e) {
            // /proc went away; nothing can be found.
        }
        return found;
    }

    /** Whether a live (not zombie) process is in the group or carries the marker; false once it has gone. */
    private boolean belongs(Path process) {
        String[] stat = stat(process);
        if (stat == null
                || stat[0].equals("Z")
                || stat[0].equals("X")
                || Long.parseLong(stat[START_FIELD]) < notBefore) {
            return false;
        }
        return Long.parseLong(stat[GROUP_FIELD]) == groupId || carriesMarker(process);
    }

    /** The fields of {@code /proc/PID/stat} after the name, from the state on; null once the process has gone. */
    private static String[] stat(Path process) {
        try {
            String stat = Files.readString(process.resolve("stat"), StandardCharsets.ISO_8859_1);
            // The name in parentheses may hold spaces and parentheses; the fields after the last ')' do not.
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ", START_FIELD + 2);
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    private boolean carriesMarker(Path process) {
        byte[] environ;
        try {
            environ = Files.readAllBytes(process.resolve("environ"));
        } catch (IOException gone) {
            return false;
        }
        // Each entry ends in a NUL; a leading one lets the first entry match like the others.
        for (int start = -1; start <= environ.length - entry.length; start++) {
            if (matchesAt(environ, start)) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesAt(byte[] environ, int start) {
        for (int j = 0; j < entry.length; j++) {
            byte actual = start + j < 0 ? 0 : environ[start + j];
            if (actual != entry[j]) {
                return false;
            }
        }
        return true;
    }
}
