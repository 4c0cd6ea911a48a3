package dev.dockhand.cli.bench;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.sandbox.DockerSandbox;
import dev.dockhand.sandbox.DockerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A benchmark, not a test (run by {@code scripts/bench-sandbox.sh}): the latency of the first command (container
 * start included), then the median of one command in the warm container through {@link DockerSandbox} against
 * {@code docker exec} of the same command in the same container. Prints a table and a JSON line.
 */
public final class SandboxBenchmark {
    private SandboxBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        String command = "true";
        Path workspace = Files.createTempDirectory("dockhand-bench").toRealPath();
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
            double oursMs = median(ours) / 1e6;
            double rawMs = median(raw) / 1e6;
            System.out.printf("first command (container start + exec): %8.1f ms%n", first / 1e6);
            System.out.printf("warm exec via DockerSandbox, median:    %8.1f ms%n", oursMs);
            System.out.printf("warm `docker exec`, median:             %8.1f ms%n", rawMs);
            System.out.printf("ratio:                                  %8.2f%n", oursMs / rawMs);
            System.out.printf(
                    "{\"first_command_ms\":%.1f,\"exec_median_ms\":%.1f,\"docker_exec_median_ms\":%.1f,"
                            + "\"ratio\":%.2f,\"runs\":%d}%n",
                    first / 1e6, oursMs, rawMs, oursMs / rawMs, runs);
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

    private static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }
}
