package dev.dockhand.bench;

import dev.dockhand.core.Json;
import dev.dockhand.core.checkpoint.Checkpoint;
import dev.dockhand.core.checkpoint.CheckpointStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark, not a test (run by {@code scripts/bench-checkpoints.sh}): what a checkpoint costs on a workspace of
 * 10,000 files (with a {@code .gitignore} of twelve rules leaving a build folder out) in which nothing changed, the
 * cost of every checkpoint before a call once the session's first snapshot is done. Measures the store's checkpoint before a call ({@link CheckpointStore#begin}: snapshot, ref and
 * log line) and after it ({@link CheckpointStore#finish}), and, for the record of why the store is JGit, the same
 * snapshot by the {@code git} binary ({@code git add -A && git write-tree} with a GIT_DIR of its own) when there is
 * one. Prints a table, with the 50 ms target beside the checkpoint's median, and a JSON line.
 */
public final class CheckpointBenchmark {
    private static final int FOLDERS = 100;
    private static final int FILES_PER_FOLDER = 100;
    private static final double TARGET_MS = 50;
    private static final List<String> IGNORE_RULES = List.of(
            "target/",
            "build/",
            "node_modules/",
            "*.class",
            "*.log",
            "*.tmp",
            "*.swp",
            ".idea/",
            ".vscode/",
            "dist/",
            "coverage/",
            "!keep.log");

    private CheckpointBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Path temp = BenchFiles.temporaryFolder("dockhand-bench-checkpoints");
        Path workspace = workspace(temp);
        List<Long> before = new ArrayList<>();
        List<Long> after = new ArrayList<>();
        List<Long> beforeCpu = new ArrayList<>();
        List<Long> beforeProcessCpu = new ArrayList<>();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // The walk stats on threads of its own: the process's CPU time counts theirs (and the collector's) too.
        com.sun.management.OperatingSystemMXBean process =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long first;
        try (CheckpointStore store = CheckpointStore.open(
                temp.resolve("home/checkpoints"), workspace, CheckpointStore.DEFAULT_MAX_FILE_SIZE, List.of())) {
            long start = System.nanoTime();
            store.warm();
            first = System.nanoTime() - start;
            // The JIT's warm-up, as a session's first calls give it.
            for (int i = 0; i < 10; i++) {
                store.finish(store.begin("bench", 0, "warm-up", "edit", "w" + i, ""));
            }
            for (int i = 0; i < runs; i++) {
                long p0 = process.getProcessCpuTime();
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Checkpoint checkpoint = store.begin("bench", 1, "measure", "edit", "c" + i, "");
                long t1 = System.nanoTime();
                beforeCpu.add(threads.getCurrentThreadCpuTime() - c0);
                beforeProcessCpu.add(process.getProcessCpuTime() - p0);
                store.finish(checkpoint);
                long t2 = System.nanoTime();
                before.add(t1 - t0);
                after.add(t2 - t1);
            }
        }
        List<Long> git = gitBinary(workspace, temp.resolve("git-binary"), runs);

        double beforeMs = round(median(before) / 1e6);
        double afterMs = round(median(after) / 1e6);
        BenchTable table = new BenchTable()
                .row(
                        "first snapshot of 10,000 files (at session start, off the request path)",
                        BenchTable.number(round(first / 1e6)) + " ms")
                .row(
                        "checkpoint_ms",
                        "checkpoint before a call, nothing changed, median of " + runs,
                        BenchTable.number(beforeMs) + " ms",
                        beforeMs,
                        TARGET_MS,
                        " ms")
                .row(
                        "its CPU time on the calling thread (user and system), median of " + runs,
                        BenchTable.number(round(median(beforeCpu) / 1e6)) + " ms")
                .row(
                        "its CPU time on every thread of the process (less sensitive to a loaded machine), median of "
                                + runs,
                        BenchTable.number(round(median(beforeProcessCpu) / 1e6)) + " ms")
                .row(
                        "changes recorded after a call, nothing changed, median of " + runs,
                        BenchTable.number(afterMs) + " ms");
        if (!git.isEmpty()) {
            table.row(
                    "the git binary's `add -A && write-tree`, for comparison, median of " + runs,
                    BenchTable.number(round(median(git) / 1e6)) + " ms");
        }
        System.out.print(table.render());
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("files", FOLDERS * FILES_PER_FOLDER);
        results.put("first_snapshot_ms", round(first / 1e6));
        results.put("checkpoint_median_ms", beforeMs);
        results.put("checkpoint_cpu_median_ms", round(median(beforeCpu) / 1e6));
        results.put("checkpoint_process_cpu_median_ms", round(median(beforeProcessCpu) / 1e6));
        results.put("finish_median_ms", afterMs);
        if (!git.isEmpty()) {
            results.put("git_binary_median_ms", round(median(git) / 1e6));
        }
        results.put("runs", runs);
        results.put("targets", table.verdicts());
        System.out.println(Json.write(results));
    }

    /** The 10,000 files, a .gitignore and the build output it leaves out, under {@code temp}. */
    private static Path workspace(Path temp) throws IOException {
        Path workspace = Files.createDirectories(temp.resolve("workspace"));
        // Rules as a project has them, so the cost of matching them is in the figure, and files they leave out.
        Files.writeString(workspace.resolve(".gitignore"), String.join("\n", IGNORE_RULES) + "\n");
        Path build = Files.createDirectories(workspace.resolve("target/classes"));
        for (int file = 0; file < 100; file++) {
            Files.writeString(build.resolve("File" + file + ".class"), "compiled\n");
        }
        for (int folder = 0; folder < FOLDERS; folder++) {
            Path dir = Files.createDirectories(workspace.resolve("src" + folder));
            for (int file = 0; file < FILES_PER_FOLDER; file++) {
                Files.writeString(
                        dir.resolve("File" + file + ".java"), "class File" + file + " { int v = " + folder + "; }\n");
            }
        }
        return workspace;
    }

    /** The same no-change snapshot by the git binary, in a repository of its own; empty when there is no git. */
    private static List<Long> gitBinary(Path workspace, Path gitDir, int runs) throws Exception {
        List<Long> times = new ArrayList<>();
        try {
            git(workspace, gitDir, "init", "-q");
        } catch (IOException e) {
            return times;
        }
        git(workspace, gitDir, "add", "-A");
        for (int i = 0; i < runs + 5; i++) {
            long start = System.nanoTime();
            git(workspace, gitDir, "add", "-A");
            git(workspace, gitDir, "write-tree");
            if (i >= 5) {
                times.add(System.nanoTime() - start);
            }
        }
        return times;
    }

    private static void git(Path workspace, Path gitDir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workspace.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("GIT_DIR", gitDir.toString());
        builder.environment().put("GIT_WORK_TREE", workspace.toString());
        builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        builder.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        Process process = builder.start();
        if (process.waitFor() != 0) {
            throw new IOException("git " + String.join(" ", args) + " failed");
        }
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }
}
