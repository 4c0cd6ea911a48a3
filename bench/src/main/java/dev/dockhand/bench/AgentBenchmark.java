package dev.dockhand.bench;

import dev.dockhand.cli.testing.ScriptedServer;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.LocalSandbox;
import dev.dockhand.tools.BuiltinTools;
import dev.dockhand.tools.RunShellCommandTool;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark, not a test (run by {@code scripts/bench}): Dockhand's own overhead against a model that answers
 * instantly on 127.0.0.1, with {@code --sandbox none}. S1 is {@code dockhand -p "hello"} answered by one text reply;
 * S20 is twenty rounds of one read_file each, then an answer. Each scenario runs the real launcher as a separate
 * process, several times after a warm-up, and reports wall time, peak RSS, the gap between consecutive model
 * requests (Dockhand's own time per round) and request sizes; then the heap a 1 GB tool output costs. S1 is also
 * measured against the same model over https (a throwaway CA, see {@link ThrowawayTls}), as every hosted model is
 * reached, and with the Docker sandbox, the default, when Docker answers: no target names these, but most users pay
 * them on every start. Prints a table, each measurement beside its target when the performance issue names one (see
 * {@link BenchTable}), then the same as one JSON line.
 */
public final class AgentBenchmark {
    private AgentBenchmark() {}

    /** One run of a scenario: process wall time, peak RSS, and what the model saw. */
    record Run(long wallNanos, long peakRssKb, List<ScriptedServer.Exchange> exchanges) {}

    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args.length > 0 ? args[0] : "scripts/dockhand").toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        // A JDK with an AOT cache (24+), for S1 once more as the launcher runs on it; absent when there is none.
        Path aotJdk = args.length > 2 && !args[2].isBlank() ? Path.of(args[2]) : null;
        int warmup = 2;
        Path workspace = BenchFiles.temporaryFolder("dockhand-bench");
        // Long enough that every round's slice has lines in it: the reads succeed, as a real session's would.
        StringBuilder readme = new StringBuilder("# Bench\n");
        for (int line = 2; line <= 40; line++) {
            readme.append("Line ").append(line).append(" of a small file to read.\n");
        }
        Files.writeString(workspace.resolve("README.md"), readme);

        List<String> s1 = List.of(ScriptedServer.answer("Hello! How can I help?"));
        List<String> s20 = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            // A different slice each round: twenty identical calls would (rightly) trip the loop guard.
            s20.add(ScriptedServer.toolCall(
                    "r" + i, "read_file", "{\"path\":\"README.md\",\"offset\":" + (i + 1) + ",\"limit\":10}"));
        }
        s20.add(ScriptedServer.answer("Read it twenty times."));

        List<Run> one = scenario(launcher, workspace, s1, warmup, runs, Setup.DEFAULT);
        List<Run> twenty = scenario(launcher, workspace, s20, warmup, runs, Setup.DEFAULT);
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("s1_wall_ms", wallStats(one));
        if (aotJdk != null) {
            // The first warm-up run records the AOT cache, as a user's first run on that JDK would.
            results.put(
                    "s1_aot_cache_wall_ms",
                    wallStats(scenario(launcher, workspace, s1, warmup, runs, Setup.DEFAULT.on(aotJdk))));
        }
        Path keys = BenchFiles.temporaryFolder("dockhand-bench-tls");
        try {
            Setup https = Setup.DEFAULT.over(ThrowawayTls.create(keys));
            results.put("s1_https_wall_ms", wallStats(scenario(launcher, workspace, s1, warmup, runs, https)));
            if (aotJdk != null) {
                results.put(
                        "s1_https_aot_cache_wall_ms",
                        wallStats(scenario(launcher, workspace, s1, warmup, runs, https.on(aotJdk))));
            }
        } catch (IOException | java.security.GeneralSecurityException e) {
            results.put("s1_https_wall_ms", "not measured: " + e.getMessage());
        } finally {
            BenchFiles.deleteTree(keys);
        }
        // The default sandbox, when Docker answers and has the image: its engine checks come before the first
        // request. Not a target either (the targets are measured with --sandbox none).
        try {
            results.put(
                    "s1_docker_sandbox_wall_ms",
                    wallStats(scenario(launcher, workspace, s1, warmup, runs, Setup.DEFAULT.in("docker"))));
        } catch (IllegalStateException e) {
            results.put(
                    "s1_docker_sandbox_wall_ms",
                    "not measured: no Docker engine or no sandbox image (" + e.getMessage() + ")");
        }
        results.put("s20_wall_ms", wallStats(twenty));
        results.put("s20_mean_request_gap_ms", meanGapMillis(twenty));
        // The first round carries one-time costs (the validator's start-up, code run for the first time); the mean
        // is what the target is about, these two say where it comes from.
        results.put("s20_first_round_gap_ms", stats(gaps(twenty, 1, 2)));
        results.put("s20_later_round_gap_ms", stats(gaps(twenty, 2, Integer.MAX_VALUE)));
        results.put(
                "s20_peak_rss_mb",
                stats(twenty.stream().map(run -> run.peakRssKb() / 1024.0).toList()));
        int firstRequest = one.get(0).exchanges().get(0).requestBytes();
        int tools = BuiltinTools.all().size();
        results.put("first_request_bytes", firstRequest);
        results.put("first_request_bytes_per_tool", Math.round(firstRequest / (double) tools));
        // The target's unit: 1.5 KB per tool.
        results.put("first_request_kb_per_tool", Math.round(firstRequest / (double) tools / 10) / 100.0);
        results.put("gigabyte_output_heap_growth_mb", gigabyteHeapGrowthMb(workspace));
        BenchTable table = table(results, tools, aotJdk);
        System.out.print(table.render());
        results.put("targets", table.verdicts());
        System.out.println(Json.write(results));
        System.exit(0);
    }

    /** The results beside the performance issue's targets, labelled as its targets are. */
    @SuppressWarnings("unchecked")
    private static BenchTable table(Map<String, Object> results, int tools, Path aotJdk) throws IOException {
        BenchTable table = new BenchTable();
        String jdk = "JDK " + System.getProperty("java.version");
        Map<String, Double> s1 = (Map<String, Double>) results.get("s1_wall_ms");
        table.row(
                "s1_wall_ms", "S1, start to exit, " + jdk, BenchTable.spread(s1, " ms"), s1.get("median"), 250, " ms");
        String aot = aotJdk == null ? "" : "JDK " + javaVersion(aotJdk) + " with its AOT cache";
        if (aotJdk != null) {
            Map<String, Double> cached = (Map<String, Double>) results.get("s1_aot_cache_wall_ms");
            table.row(
                    "s1_aot_cache_wall_ms",
                    "S1, " + aot,
                    BenchTable.spread(cached, " ms"),
                    cached.get("median"),
                    100,
                    " ms");
        }
        table.row("S1 over https, " + jdk, measured(results.get("s1_https_wall_ms"), " ms"));
        if (results.containsKey("s1_https_aot_cache_wall_ms")) {
            table.row("S1 over https, " + aot, measured(results.get("s1_https_aot_cache_wall_ms"), " ms"));
        }
        table.row("S1 with the Docker sandbox, " + jdk, measured(results.get("s1_docker_sandbox_wall_ms"), " ms"));
        Map<String, Double> s20 = (Map<String, Double>) results.get("s20_wall_ms");
        table.row("s20_wall_ms", "S20, start to exit", BenchTable.spread(s20, " ms"), s20.get("median"), 400, " ms");
        double gap = (Double) results.get("s20_mean_request_gap_ms");
        Map<String, Double> first = (Map<String, Double>) results.get("s20_first_round_gap_ms");
        Map<String, Double> later = (Map<String, Double>) results.get("s20_later_round_gap_ms");
        table.row(
                "s20_mean_request_gap_ms",
                "mean gap between model requests in S20",
                BenchTable.number(gap) + " ms (medians: first round " + BenchTable.number(first.get("median"))
                        + " ms, later rounds " + BenchTable.number(later.get("median")) + " ms)",
                gap,
                5,
                " ms");
        Map<String, Double> rss = (Map<String, Double>) results.get("s20_peak_rss_mb");
        table.row("s20_peak_rss_mb", "peak RSS in S20", BenchTable.spread(rss, " MB"), rss.get("median"), 80, " MB");
        int bytes = (Integer) results.get("first_request_bytes");
        double perTool = (Double) results.get("first_request_kb_per_tool");
        table.row(
                "first_request_kb_per_tool",
                "first request, per tool offered",
                BenchTable.number(perTool) + " KB (" + bytes + " bytes for " + tools + " tools)",
                perTool,
                1.5,
                " KB");
        double heap = (Double) results.get("gigabyte_output_heap_growth_mb");
        table.row(
                "gigabyte_output_heap_growth_mb",
                "heap growth while a command prints 1 GB",
                BenchTable.number(heap) + " MB",
                heap,
                64,
                " MB");
        return table;
    }

    @SuppressWarnings("unchecked")
    private static String measured(Object result, String unit) {
        return result instanceof Map<?, ?> stats
                ? BenchTable.spread((Map<String, Double>) stats, unit)
                : String.valueOf(result);
    }

    /** The full version a JDK's release file gives, such as 25.0.3. */
    private static String javaVersion(Path jdk) throws IOException {
        for (String line : Files.readAllLines(jdk.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                return line.substring("JAVA_VERSION=".length()).replace("\"", "");
            }
        }
        return jdk.getFileName().toString();
    }

    /**
     * How a scenario's runs start: on the JDK at {@code javaHome} (null: the launcher's choice), over https when
     * {@code tls} is not null, with {@code sandbox}.
     */
    record Setup(Path javaHome, ThrowawayTls tls, String sandbox) {
        static final Setup DEFAULT = new Setup(null, null, "none");

        Setup on(Path jdk) {
            return new Setup(jdk, tls, sandbox);
        }

        Setup over(ThrowawayTls keys) {
            return new Setup(javaHome, keys, sandbox);
        }

        Setup in(String kind) {
            return new Setup(javaHome, tls, kind);
        }
    }

    /** Runs a scenario {@code warmup + runs} times; keeps the last runs. */
    static List<Run> scenario(Path launcher, Path workspace, List<String> replies, int warmup, int runs, Setup setup)
            throws Exception {
        List<Run> measured = new ArrayList<>();
        for (int i = 0; i < warmup + runs; i++) {
            try (ScriptedServer model = new ScriptedServer(
                    replies, setup.tls() == null ? null : setup.tls().serverContext())) {
                Run run = launch(launcher, workspace, model, setup);
                if (i >= warmup) {
                    measured.add(run);
                }
            }
        }
        return measured;
    }

    private static Run launch(Path launcher, Path workspace, ScriptedServer model, Setup setup) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                        launcher.toString(),
                        "--sandbox",
                        setup.sandbox(),
                        "--yolo",
                        "--model",
                        "bench",
                        "--base-url",
                        model.baseUrl(),
                        "-p",
                        "hello")
                .directory(workspace.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().put("OPENAI_API_KEY", "bench");
        if (setup.javaHome() != null) {
            builder.environment().put("JAVA_HOME", setup.javaHome().toString());
        }
        builder.environment()
                .put("DOCKHAND_HOME", workspace.resolve(".dockhand").toString());
        if (setup.tls() != null) {
            // The JVM reads this variable itself; the launcher passes no options through.
            builder.environment()
                    .put(
                            "JAVA_TOOL_OPTIONS",
                            "-Djavax.net.ssl.trustStore=" + setup.tls().trustStore());
        }
        long start = System.nanoTime();
        Process process = builder.start();
        long peak = 0;
        // The launcher execs the JVM, so the pid stays the same; VmHWM is the kernel's own high-water mark of the
        // resident set, so sampling it every 10 ms misses at most the growth of the last 10 ms. Sampling more often
        // took a noticeable share of this 2-core machine away from the process being measured.
        do {
            peak = Math.max(peak, peakRssKb(process.pid()));
        } while (!process.waitFor(10, TimeUnit.MILLISECONDS));
        long wall = System.nanoTime() - start;
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "dockhand exited " + process.exitValue() + " in the benchmark (--sandbox " + setup.sandbox() + ")");
        }
        return new Run(wall, peak, model.exchanges());
    }

    private static long peakRssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException gone) {
            // The process ended between two looks.
        }
        return 0;
    }

    /** The mean time from the end of one reply to the arrival of the next request: Dockhand's work per round. */
    private static double meanGapMillis(List<Run> runs) {
        return round(gaps(runs, 1, Integer.MAX_VALUE).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElse(0));
    }

    /** The gaps before requests {@code from} (1 is the second request) up to {@code to}, exclusive, of every run. */
    private static List<Double> gaps(List<Run> runs, int from, int to) {
        List<Double> gaps = new ArrayList<>();
        for (Run run : runs) {
            List<ScriptedServer.Exchange> exchanges = run.exchanges();
            for (int i = from; i < Math.min(to, exchanges.size()); i++) {
                gaps.add((exchanges.get(i).arrivedNanos() - exchanges.get(i - 1).answeredNanos()) / 1e6);
            }
        }
        return gaps;
    }

    /** The heap growth while the shell tool takes 1 GB of output, in this JVM. */
    private static double gigabyteHeapGrowthMb(Path workspace) throws Exception {
        System.gc();
        long before = heapUsed();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        try (LocalSandbox sandbox = new LocalSandbox(Map.of("PATH", System.getenv("PATH")))) {
            ToolContext context = new ToolContext(
                    Workspace.of(workspace),
                    sandbox,
                    new Cancellation(),
                    OutputSink.NONE,
                    "bench-gigabyte",
                    OutputLimits.DEFAULT,
                    workspace.resolve(".dockhand/tmp"));
            new RunShellCommandTool()
                    .execute(
                            new RunShellCommandTool.Params(
                                    "head -c 1073741824 /dev/zero | tr '\\0' 'x' | fold -w 1000", null, 600_000L, null),
                            context);
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        Files.deleteIfExists(workspace.resolve(".dockhand/tmp/bench-gigabyte.txt"));
        return round((peak - before) / (1024.0 * 1024));
    }

    private static long heapUsed() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                used += pool.getUsage().getUsed();
            }
        }
        return used;
    }

    static Map<String, Double> wallStats(List<Run> runs) {
        return stats(runs.stream().map(run -> run.wallNanos() / 1e6).toList());
    }

    private static Map<String, Double> stats(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        double median = sorted.size() % 2 == 1
                ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        Map<String, Double> stats = new LinkedHashMap<>();
        stats.put("median", round(median));
        stats.put("min", round(sorted.get(0)));
        stats.put("max", round(sorted.get(sorted.size() - 1)));
        return stats;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
