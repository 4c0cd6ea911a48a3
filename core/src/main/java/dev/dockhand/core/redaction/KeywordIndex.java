package dev.dockhand.core.redaction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rules' keywords by their first two characters (lower-case ASCII), for {@link SecretScanner}'s one pass. */
final class KeywordIndex {
    /** A keyword and the indexes of the rules that have it. */
    record Entry(String keyword, int[] rules) {}

    private final Entry[][] buckets = new Entry[128 * 128][];

    KeywordIndex(List<SecretRules.Rule> rules) {
        Map<String, List<Integer>> byKeyword = new LinkedHashMap<>();
        for (int i = 0; i < rules.size(); i++) {
            for (String keyword : rules.get(i).keywords()) {
                if (keyword.length() < 2 || keyword.charAt(0) >= 128 || keyword.charAt(1) >= 128) {
                    throw new IllegalArgumentException("keyword '" + keyword + "' of "
                            + rules.get(i).id() + " must start with two ASCII characters");
                }
                byKeyword.computeIfAbsent(keyword, k -> new ArrayList<>()).add(i);
            }
        }
        Map<Integer, List<Entry>> lists = new LinkedHashMap<>();
        byKeyword.forEach((keyword, indexes) -> lists.computeIfAbsent(
                        keyword.charAt(0) * 128 + keyword.charAt(1), key -> new ArrayList<>())
                .add(new Entry(
                        keyword, indexes.stream().mapToInt(Integer::intValue).toArray())));
        lists.forEach((key, entries) -> buckets[key] = entries.toArray(Entry[]::new));
    }

    /** The keywords starting with these two characters, or null. */
    Entry[] bucket(int first, int second) {
        return buckets[first * 128 + second];
    }
}
