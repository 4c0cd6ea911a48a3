package dev.dockhand.tools;

import dev.dockhand.core.Utf16;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Keeps a long text within a budget. Without a prompt: its start. With one: the paragraphs that share the most words
 * with the prompt, in their original order, so the model gets the relevant part of a long page.
 */
final class Passages {
    private Passages() {}

    static String select(String text, String prompt, int budget) {
        if (prompt == null || prompt.isBlank()) {
            String start = Utf16.head(text, budget);
            return start + "\n\n[… the page continues; " + (text.length() - start.length())
                    + " more characters not shown]";
        }
        Set<String> terms = words(prompt);
        List<String> paragraphs = Arrays.asList(text.split("\n\n"));
        List<Integer> byRelevance = new ArrayList<>();
        for (int i = 0; i < paragraphs.size(); i++) {
            byRelevance.add(i);
        }
        byRelevance.sort(Comparator.comparingLong((Integer i) -> -score(paragraphs.get(i), terms))
                .thenComparing(i -> i));
        Set<Integer> kept = new TreeSet<>();
        int used = 0;
        for (int i : byRelevance) {
            int length = paragraphs.get(i).length() + 2;
            if (used + length > budget) {
                continue;
            }
            kept.add(i);
            used += length;
        }
        String selected = kept.stream().map(paragraphs::get).collect(Collectors.joining("\n\n"));
        return selected + "\n\n[… " + (paragraphs.size() - kept.size())
                + " less relevant passages of the page not shown]";
    }

    private static long score(String paragraph, Set<String> terms) {
        return words(paragraph).stream().filter(terms::contains).count();
    }

    private static Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+"))
                .filter(word -> word.length() >= 3)
                .collect(Collectors.toSet());
    }
}
