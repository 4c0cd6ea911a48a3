package dev.dockhand.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a benchmark prints for people: one row per measurement, beside its target when the performance issue names
 * one, and whether the measurement meets it or by how much it misses. Every target is an upper bound ("≤ 250 ms"),
 * compared with the median where there are several runs. The verdicts also go into the JSON line, so that a script
 * can read them without parsing the table.
 */
final class BenchTable {
    private static final String[] HEADER = {"what", "target", "measured", "verdict"};

    private final List<String[]> rows = new ArrayList<>();
    private final Map<String, Map<String, Object>> verdicts = new LinkedHashMap<>();

    /** A measurement no target names. */
    BenchTable row(String what, String measured) {
        rows.add(new String[] {what, "", measured, ""});
        return this;
    }

    /** A ratio beside its upper limit, both shown as {@code 1.2×}. */
    BenchTable ratio(String key, String what, double value, double limit) {
        return row(key, what, number(value) + "×", value, limit, "×");
    }

    /**
     * A measurement with a target: met when {@code value} is at most {@code limit}, both in {@code unit}. {@code key}
     * names it in the JSON line.
     */
    BenchTable row(String key, String what, String measured, double value, double limit, String unit) {
        boolean met = value <= limit;
        String verdict = met ? "met" : "missed by " + number(value - limit) + unit;
        rows.add(new String[] {what, "≤ " + number(limit) + unit, measured, verdict});
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("target", limit);
        entry.put("met", met);
        verdicts.put(key, entry);
        return this;
    }

    /** The verdicts by key, in the order they were added: each target and whether it was met. */
    Map<String, Map<String, Object>> verdicts() {
        return verdicts;
    }

    /** The rows under a header, each column as wide as its widest cell, two spaces apart; no trailing spaces. */
    String render() {
        List<String[]> all = new ArrayList<>();
        all.add(HEADER);
        all.addAll(rows);
        int[] widths = new int[HEADER.length];
        for (String[] row : all) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : all) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.length; column++) {
                line.append(row[column]);
                if (column < row.length - 1) {
                    line.append(" ".repeat(widths[column] - row[column].length() + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** A wall time or size with its spread: {@code 125.9 ms (min 123, max 138.9)}. */
    static String spread(Map<String, Double> stats, String unit) {
        return number(stats.get("median")) + unit + " (min " + number(stats.get("min")) + ", max "
                + number(stats.get("max")) + ")";
    }

    /** Two decimals at most, without trailing zeros, and with a point whatever the default locale. */
    static String number(double value) {
        double rounded = Math.round(value * 100) / 100.0;
        if (rounded == Math.rint(rounded)) {
            return String.format(Locale.ROOT, "%d", (long) rounded);
        }
        String text = String.format(Locale.ROOT, "%.2f", rounded);
        return text.endsWith("0") ? text.substring(0, text.length() - 1) : text;
    }
}
