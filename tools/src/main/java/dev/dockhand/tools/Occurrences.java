package dev.dockhand.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Where a text occurs in another, non-overlapping, with the line number of each start. */
record Occurrences(List<Integer> offsets, List<Integer> lineNumbers) {

    static Occurrences of(String text, String needle) {
        List<Integer> offsets = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        int line = 1;
        int counted = 0;
        int at = text.indexOf(needle);
        while (at >= 0) {
            for (int i = counted; i < at; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            counted = at;
            offsets.add(at);
            lines.add(line);
            at = text.indexOf(needle, at + needle.length());
        }
        return new Occurrences(List.copyOf(offsets), List.copyOf(lines));
    }

    int count() {
        return offsets.size();
    }

    String lines() {
        return lineNumbers.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    String replaceFirst(String text, String needle, String replacement) {
        int at = offsets.get(0);
        return text.substring(0, at) + replacement + text.substring(at + needle.length());
    }
}
