package dev.dockhand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.environment.InLocale;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchTableTest {
    private static Map<String, Double> stats(double median, double min, double max) {
        Map<String, Double> stats = new LinkedHashMap<>();
        stats.put("median", median);
        stats.put("min", min);
        stats.put("max", max);
        return stats;
    }

    @Test
    void eachTargetStandsBesideItsMeasurementWithWhetherItIsMetOrByHowMuchItMisses() {
        BenchTable table = new BenchTable()
                .row("s1", "S1", BenchTable.spread(stats(170.3, 166.4, 178), " ms"), 170.3, 250, " ms")
                .row("aot", "S1, AOT", BenchTable.spread(stats(125.9, 123, 138.9), " ms"), 125.9, 100, " ms")
                .row("S1 over https", "301.3 ms")
                .row("ratio", "warm command against `docker exec`", "1.2×", 1.2, 1.2, "×");

        assertEquals(
                String.join(
                        "\n",
                        "what                                target    measured                       verdict",
                        "S1                                  ≤ 250 ms  170.3 ms (min 166.4, max 178)  met",
                        "S1, AOT                             ≤ 100 ms  125.9 ms (min 123, max 138.9)  missed by 25.9 ms",
                        "S1 over https                                 301.3 ms",
                        "warm command against `docker exec`  ≤ 1.2×    1.2×                           met",
                        ""),
                table.render());
        assertEquals(
                Map.of(
                        "s1", Map.of("target", 250.0, "met", true),
                        "aot", Map.of("target", 100.0, "met", false),
                        "ratio", Map.of("target", 1.2, "met", true)),
                table.verdicts());
        assertEquals(List.of("s1", "aot", "ratio"), List.copyOf(table.verdicts().keySet()));
    }

    @Test
    void numbersKeepAtMostTwoDecimalsAndAPointInEveryLocale() {
        assertEquals(
                List.of("250", "1.5", "0.86", "0.8", "25.9", "0"),
                InLocale.get(Locale.GERMANY, () -> List.of(250.0, 1.5, 0.8612, 0.8, 25.900000000000006, 0.0001).stream()
                        .map(BenchTable::number)
                        .toList()));
    }
}
