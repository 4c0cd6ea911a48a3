package dev.dockhand.bench;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.sandbox.DockerSandbox;
import dev.dockhand.sandbox.DockerSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark, not a test (run by {@code scripts/bench-sandbox.sh}): the latency of the first command (container
 * start included), then the median of one command in the warm container through {@link DockerSandbox} against
 * {@code docker exec} of the same command in the same container; then, through the launcher, the first command of
 * a session against the warm ones after it when the model takes a second over the first prompt (see {@link
 * FirstCommandBenchmark}). Prints a table, with the targets of the
 * performance issue beside the measurements (see {@link BenchTable}), and a JSON line.
 */
public final class SandboxBenchmark {
    /** Sessions measured for the first command, each with this many warm commands after it. */
    private static final int SESSIONS = 5;

    private static final int WARM_COMMANDS = 5;
    /** How long the scripted model thinks about the first prompt. */
    private static final long FIRST_REPLY_DELAY_MILLIS = 1000;

    private SandboxBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Path launcher = Path.of(args.length > 1 ? args[1] : "scripts/dockhand").toAbsolutePath();
        String command = "true";
        Path workspace = BenchFiles.temporaryFolder("dockhand-bench");
        try (DockerSandbox sandbox =
                DockerSandbox.connect(DockerSettings.DEFAULT, workspace, List.of(), System.getenv())) {
            sandbox.preflight();
            long first = time(() -> exec(sandbox, workspace, command));
            for (int i = 0; i < 5; i++) {
                exec(sandbox, workspace, command);
                dockerExec(sandbox.containerId(), workspace, command);
            }
            List<Long> ours = new ArrayList<>();
            List<Long> raw = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                ours.add(time(() -> exec(sandbox, workspace, command)));
                raw.add(time(() -> dockerExec(sandbox.containerId(), workspace, command)));
            }
            double ratio = median(ours) / median(raw);
            double oursMs = round(median(ours) / 1e6);
            double rawMs = round(median(raw) / 1e6);
            double firstMs = round(first / 1e6);
            // Sessions through the launcher: the container starts when the session opens, while the model thinks.
            List<FirstCommandBenchmark.Session> thinking =
                    FirstCommandBenchmark.sessions(launcher, SESSIONS, WARM_COMMANDS, FIRST_REPLY_DELAY_MILLIS);
            List<FirstCommandBenchmark.Session> instant =
                    FirstCommandBenchmark.sessions(launcher, SESSIONS, WARM_COMMANDS, 0);
            double sessionFirst = median(thinking.stream()
                    .map(FirstCommandBenchmark.Session::firstMillis)
                    .toList());
            double sessionWarm = median(thinking.stream()
                    .flatMap(session -> session.warmMillis().stream())
                    .toList());
            double firstRatio = sessionFirst / sessionWarm;
            double instantFirst = median(instant.stream()
                    .map(FirstCommandBenchmark.Session::firstMillis)
                    .toList());
            BenchTable table = new BenchTable()
                    .row(
                            "first_command_ms",
                            "first command in Docker (container start and exec)",
                            BenchTable.number(firstMs) + " ms",
                            firstMs,
                            1000,
                            " ms")
                    .row("warm command via DockerSandbox, median of " + runs, BenchTable.number(oursMs) + " ms")
                    .row("warm `docker exec` of the same command, median of " + runs, BenchTable.number(rawMs) + " ms")
                    .ratio("ratio", "warm command against `docker exec`", ratio, 1.2)
                    .row(
                            "session_first_to_warm_command",
                            "first command of a session against a warm one, the model answering the first prompt"
                                    + " after " + FIRST_REPLY_DELAY_MILLIS + " ms (medians of " + SESSIONS
                                    + " sessions)",
                            BenchTable.number(firstRatio) + "× (" + BenchTable.number(sessionFirst) + " / "
                                    + BenchTable.number(sessionWarm) + " ms)",
                            firstRatio,
                            1.2,
                            "×")
                    .row(
                            "first command of a session, the model answering at once (it waits for the start)",
                            BenchTable.number(instantFirst) + " ms");
            System.out.print(table.render());
            Map<String, Object> results = new LinkedHashMap<>();
            results.put("first_command_ms", firstMs);
            results.put("exec_median_ms", oursMs);
            results.put("docker_exec_median_ms", rawMs);
            results.put("ratio", Math.round(ratio * 100) / 100.0);
            results.put("runs", runs);
            results.put("session_first_command_ms", sessionFirst);
            results.put("session_warm_command_ms", sessionWarm);
            results.put("session_first_to_warm_command", Math.round(firstRatio * 100) / 100.0);
            results.put("session_first_command_instant_model_ms", instantFirst);
            results.put("targets", table.verdicts());
            System.out.println(Json.write(results));
        }
    }

    /** A step that may fail; its failure aborts the benchmark. */
    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    private static long time(Step step) throws Exception {
        long start = System.nanoTime();
        step.run();
        return System.nanoTime() - start;
    }

    private static void exec(DockerSandbox sandbox, Path workspace, String command) throws IOException {
        sandbox.exec(new ExecRequest(command, workspace, Duration.ofMinutes(1)), line -> {}, new Cancellation());
    }

    private static void dockerExec(String container, Path workspace, String command) throws Exception {
        Process process = new ProcessBuilder(
                        "docker", "exec", "-w", workspace.toString(), container, "bash", "-c", command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        process.waitFor();
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double median(List<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }
}
