package dev.dockhand.bench;

import dev.dockhand.cli.testing.ScriptedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two launchers side by side (run by {@code scripts/bench --against OTHER}): S1 and S20 as {@link AgentBenchmark}
 * runs them, one run of each launcher in turn, so that both see the same load on a shared machine. Prints the medians
 * and the ratio of the second launcher's to the first's.
 */
public final class LauncherComparison {
    private LauncherComparison() {}

    public static void main(String[] args) throws Exception {
        Path first = Path.of(args[0]).toAbsolutePath();
        Path second = Path.of(args[1]).toAbsolutePath();
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Path workspace = BenchFiles.temporaryFolder("dockhand-compare");
        StringBuilder readme = new StringBuilder("# Bench\n");
        for (int line = 2; line <= 40; line++) {
            readme.append("Line ").append(line).append(" of a small file to read.\n");
        }
        Files.writeString(workspace.resolve("README.md"), readme);
        List<String> s1 = List.of(ScriptedServer.answer("Hello! How can I help?"));
        List<String> s20 = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            s20.add(ScriptedServer.toolCall(
                    "r" + i, "read_file", "{\"path\":\"README.md\",\"offset\":" + (i + 1) + ",\"limit\":10}"));
        }
        s20.add(ScriptedServer.answer("Read it twenty times."));
        for (var scenario : List.of(Map.entry("S1", s1), Map.entry("S20", s20))) {
            List<AgentBenchmark.Run> a = new ArrayList<>();
            List<AgentBenchmark.Run> b = new ArrayList<>();
            // Two warm-up rounds each: the first run of a fresh build records its start-up archive.
            AgentBenchmark.scenario(first, workspace, scenario.getValue(), 2, 0, AgentBenchmark.Setup.DEFAULT);
            AgentBenchmark.scenario(second, workspace, scenario.getValue(), 2, 0, AgentBenchmark.Setup.DEFAULT);
            for (int i = 0; i < runs; i++) {
                a.addAll(AgentBenchmark.scenario(
                        first, workspace, scenario.getValue(), 0, 1, AgentBenchmark.Setup.DEFAULT));
                b.addAll(AgentBenchmark.scenario(
                        second, workspace, scenario.getValue(), 0, 1, AgentBenchmark.Setup.DEFAULT));
            }
            double medianA = AgentBenchmark.wallStats(a).get("median");
            double medianB = AgentBenchmark.wallStats(b).get("median");
            System.out.printf(
                    Locale.ROOT,
                    "%s median of %d: first %.1f ms, second %.1f ms, second/first %.3f%n",
                    scenario.getKey(),
                    runs,
                    medianA,
                    medianB,
                    medianB / medianA);
        }
        System.exit(0);
    }
}
