package dev.dockhand.core.redaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds secrets in a text: every occurrence of a known value (the user's own secrets, and every value redacted before
 * in the session), and every match of a {@link SecretRules} rule that passes its allow lists. A rule with keywords
 * only runs in windows around a keyword's occurrences, as gitleaks only runs a rule on a fragment holding one of its
 * keywords: that keeps a megabyte of ordinary output to a few milliseconds.
 */
final class SecretScanner {
    /** Characters before a keyword a match may start at, and after it a match may end at. */
    private static final int BEFORE = 256;

    private static final int AFTER = 640;
    /** The same for rules whose secret spans lines: a private key block of a 4096-bit key is about 3,300 chars. */
    private static final int MULTI_LINE = 8192;

    static final Pattern PLACEHOLDER = Pattern.compile("\\[REDACTED:[A-Za-z0-9_.\\-]+:\\d+\\]");

    /**
     * A secret at [start, end) of the text, found by the rule or known value {@code id}; of two findings of one
     * secret, the lower {@code rank} names it (known values first, then the rules in their file's order).
     */
    record Finding(int start, int end, String id, int rank) {}

    /** A literal value to find, with the id its placeholders take. */
    record Needle(String text, String id) {}

    private final SecretRules rules;
    private final Set<String> allowedValues;

    SecretScanner(SecretRules rules, Set<String> allowedValues) {
        this.rules = rules;
        this.allowedValues = Set.copyOf(allowedValues);
    }

    /** The secrets of {@code text}, sorted, none overlapping another or a placeholder already in the text. */
    List<Finding> scan(String text, Iterable<Needle> needles) {
        List<Finding> found = new ArrayList<>();
        for (Needle needle : needles) {
            int at = text.indexOf(needle.text());
            while (at >= 0) {
                found.add(new Finding(at, at + needle.text().length(), needle.id(), -1));
                at = text.indexOf(needle.text(), at + needle.text().length());
            }
        }
        String lower = asciiLowerCase(text);
        List<SecretRules.Rule> all = rules.rules();
        for (int rank = 0; rank < all.size(); rank++) {
            SecretRules.Rule rule = all.get(rank);
            if (rule.keywords().isEmpty()) {
                run(rule, rank, text, 0, text.length(), found);
                continue;
            }
            for (int[] window : windows(rule, text, lower)) {
                run(rule, rank, text, window[0], window[1], found);
            }
        }
        return resolve(found, placeholders(text));
    }

    /** The windows around the rule's keywords, merged where they overlap. */
    private static List<int[]> windows(SecretRules.Rule rule, String text, String lower) {
        List<int[]> windows = new ArrayList<>();
        for (String keyword : rule.keywords()) {
            int at = lower.indexOf(keyword);
            while (at >= 0) {
                int end = at + keyword.length();
                if (!rule.assignment() || assignmentFollows(text, end)) {
                    windows.add(window(rule, text, at, end));
                }
                at = lower.indexOf(keyword, end);
            }
        }
        if (windows.size() <= 1) {
            return windows;
        }
        windows.sort(Comparator.comparingInt(w -> w[0]));
        List<int[]> merged = new ArrayList<>();
        int[] current = windows.get(0);
        for (int i = 1; i < windows.size(); i++) {
            int[] next = windows.get(i);
            if (next[0] <= current[1]) {
                current = new int[] {current[0], Math.max(current[1], next[1])};
            } else {
                merged.add(current);
                current = next;
            }
        }
        merged.add(current);
        return merged;
    }

    private static int[] window(SecretRules.Rule rule, String text, int start, int end) {
        if (rule.multiLine()) {
            return new int[] {Math.max(0, start - MULTI_LINE), Math.min(text.length(), end + MULTI_LINE)};
        }
        int lineStart = text.lastIndexOf('\n', start) + 1;
        // The line's newline is part of its window: rules end a secret with a space, which it is.
        int lineEnd = text.indexOf('\n', end);
        lineEnd = lineEnd < 0 ? text.length() : lineEnd + 1;
        return new int[] {Math.max(lineStart, start - BEFORE), Math.min(lineEnd, end + AFTER)};
    }

    /**
     * Whether an assignment ({@code =}, {@code :}, {@code >}, {@code ,}, {@code |}, {@code ?}) follows a keyword
     * within the few name characters and quotes gitleaks' key=value rules allow there: most keywords in ordinary
     * text ("key", "token" in prose and code) fail this at once, and the rule's expensive regex is not run for them.
     */
    private static boolean assignmentFollows(String text, int from) {
        int limit = Math.min(text.length(), from + 30);
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '=' || c == ':' || c == '>' || c == ',' || c == '|' || c == '?') {
                return true;
            }
            boolean name = c == ' '
                    || c == '\t'
                    || c == '.'
                    || c == '-'
                    || c == '_'
                    || c == '\''
                    || c == '"'
                    || Character.isLetterOrDigit(c);
            if (!name) {
                return false;
            }
        }
        return false;
    }

    private void run(SecretRules.Rule rule, int rank, String text, int from, int to, List<Finding> found) {
        Matcher matcher = rule.pattern().matcher(text).region(from, to);
        matcher.useTransparentBounds(true).useAnchoringBounds(false);
        while (matcher.find()) {
            int group = secretGroup(matcher);
            String secret = matcher.group(group);
            if (secret.isEmpty() || allowedValues.contains(secret) || secret.contains("[REDACTED:")) {
                continue;
            }
            if (!rules.allowed(rule, secret, matcher.group())) {
                found.add(new Finding(matcher.start(group), matcher.end(group), rule.id(), rank));
            }
        }
    }

    /** The first capture group that matched something, or the whole match when there is none (gitleaks' rule). */
    private static int secretGroup(Matcher matcher) {
        for (int group = 1; group <= matcher.groupCount(); group++) {
            if (matcher.start(group) >= 0 && matcher.end(group) > matcher.start(group)) {
                return group;
            }
        }
        return 0;
    }

    private static List<int[]> placeholders(String text) {
        List<int[]> spans = new ArrayList<>();
        if (!text.contains("[REDACTED:")) {
            return spans;
        }
        Matcher matcher = PLACEHOLDER.matcher(text);
        while (matcher.find()) {
            spans.add(new int[] {matcher.start(), matcher.end()});
        }
        return spans;
    }

    /** Earliest first; overlapping findings merge into one, and one overlapping a placeholder is dropped. */
    private static List<Finding> resolve(List<Finding> found, List<int[]> placeholders) {
        found.sort(Comparator.comparingInt(Finding::start)
                .thenComparing(Comparator.comparingInt(Finding::end).reversed())
                .thenComparingInt(Finding::rank));
        List<Finding> kept = new ArrayList<>();
        for (Finding finding : found) {
            if (overlaps(finding, placeholders)) {
                continue;
            }
            Finding last = kept.isEmpty() ? null : kept.get(kept.size() - 1);
            if (last != null && finding.start() < last.end()) {
                // Overlapping secrets become one: redacting either alone would leave part of the other in clear.
                if (finding.end() > last.end()) {
                    kept.set(kept.size() - 1, new Finding(last.start(), finding.end(), last.id(), last.rank()));
                }
                continue;
            }
            kept.add(finding);
        }
        return kept;
    }

    private static boolean overlaps(Finding finding, List<int[]> spans) {
        for (int[] span : spans) {
            if (finding.start() < span[1] && span[0] < finding.end()) {
                return true;
            }
        }
        return false;
    }

    /** ASCII letters lowered, every other char kept, so that indexes match the text's (keywords are ASCII). */
    static String asciiLowerCase(String text) {
        char[] chars = text.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            if (c >= 'A' && c <= 'Z') {
                chars[i] = (char) (c + 32);
            }
        }
        return new String(chars);
    }
}
