package dev.dockhand.core.redaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds secrets in a text: every occurrence of a known value (the user's own secrets, and every value redacted before
 * in the session), and every match of a {@link SecretRules} rule that passes its allow lists. A rule with keywords
 * only runs in windows around a keyword's occurrences, as gitleaks only runs a rule on a fragment holding one of its
 * keywords: that keeps a megabyte of ordinary output to a few milliseconds.
 */
final class SecretScanner {
    /**
     * Characters before a keyword a match may start at (an OpenAI key has 82 before its keyword), and after it a match
     * may end at (a PyPI token may run to a thousand).
     */
    private static final int BEFORE = 100;

    private static final int AFTER = 1100;
    /** A key=value rule: how far back the name holding the keyword may start, and where its value must end. */
    private static final int NAME_BEFORE = 50;

    private static final int ASSIGNMENT_AFTER = 256;
    /** The same for rules whose secret spans lines: a private key block of a 4096-bit key is about 3,300 chars. */
    private static final int MULTI_LINE = 8192;

    static final Pattern PLACEHOLDER = Pattern.compile("\\[REDACTED:[A-Za-z0-9_.\\-]+:\\d+\\]");

    /**
     * A secret at [start, end) of the text, found by the rule or known value {@code id}; of two findings of one
     * secret, the lower {@code rank} names it (known values first, then the rules in their file's order).
     * {@code expands}: whether its placeholder may get its value back in a call's arguments ({@link
     * SecretRules.Rule#expands}); false when any rule whose finding merged into it says no.
     */
    record Finding(int start, int end, String id, int rank, boolean expands) {}

    /** A literal value to find, with the id its placeholders take and whether they may be expanded. */
    record Needle(String text, String id, boolean expands) {
        Needle(String text, String id) {
            this(text, id, true);
        }
    }

    private final SecretRules rules;
    private final Set<String> allowedValues;
    /** Settings patterns that ran out of their step budget once: they are not run again this session. */
    private final Set<String> dropped = ConcurrentHashMap.newKeySet();

    private final Consumer<String> onDropped;

    SecretScanner(SecretRules rules, Set<String> allowedValues) {
        this(rules, allowedValues, problem -> {});
    }

    /** {@code onDropped} hears, once per pattern, that a settings pattern was dropped for taking too long. */
    SecretScanner(SecretRules rules, Set<String> allowedValues, Consumer<String> onDropped) {
        this.rules = rules;
        this.allowedValues = Set.copyOf(allowedValues);
        this.onDropped = onDropped;
    }

    /** The secrets of {@code text}, sorted, none overlapping another or a placeholder already in the text. */
    List<Finding> scan(String text, Iterable<Needle> needles) {
        List<Finding> found = new ArrayList<>();
        for (Needle needle : needles) {
            int at = text.indexOf(needle.text());
            while (at >= 0) {
                found.add(new Finding(at, at + needle.text().length(), needle.id(), -1, needle.expands()));
                at = text.indexOf(needle.text(), at + needle.text().length());
            }
        }
        List<SecretRules.Rule> all = rules.rules();
        List<List<int[]>> hits = keywordHits(text);
        for (int rank = 0; rank < all.size(); rank++) {
            SecretRules.Rule rule = all.get(rank);
            if (rule.fromSettings()) {
                runBudgeted(rule, rank, text, found);
            } else if (rule.keywords().isEmpty()) {
                run(rule, rank, text, 0, text.length(), found);
            } else if (rule.assignment()) {
                runAtAssignments(rule, rank, text, hits.get(rank), found);
            } else {
                for (int[] window : windows(rule, text, hits.get(rank))) {
                    run(rule, rank, text, window[0], window[1], found);
                }
            }
        }
        return resolve(found, placeholders(text));
    }

    /**
     * Where each rule's keywords occur, as {start, end} pairs, found in one pass over the text (case-insensitively,
     * keywords being lower-case ASCII): an index of the keywords by their first two characters is looked up at each
     * position, so the cost does not grow with the number of keywords.
     */
    private List<List<int[]>> keywordHits(String text) {
        List<List<int[]>> hits = new ArrayList<>();
        for (int i = 0; i < rules.rules().size(); i++) {
            hits.add(new ArrayList<>());
        }
        KeywordIndex index = rules.keywordIndex();
        int last = text.length() - 1;
        for (int i = 0; i < last; i++) {
            int first = lower(text.charAt(i));
            if (first >= 128) {
                continue;
            }
            int second = lower(text.charAt(i + 1));
            if (second >= 128) {
                continue;
            }
            KeywordIndex.Entry[] bucket = index.bucket(first, second);
            if (bucket == null) {
                continue;
            }
            for (KeywordIndex.Entry entry : bucket) {
                String keyword = entry.keyword();
                if (text.regionMatches(true, i, keyword, 0, keyword.length())) {
                    for (int rule : entry.rules()) {
                        hits.get(rule).add(new int[] {i, i + keyword.length()});
                    }
                }
            }
        }
        return hits;
    }

    private static int lower(char c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    /** The windows around the rule's keywords, merged where they overlap. */
    private static List<int[]> windows(SecretRules.Rule rule, String text, List<int[]> hits) {
        List<int[]> windows = new ArrayList<>();
        for (int[] hit : hits) {
            windows.add(window(rule, text, hit[0], hit[1]));
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
     * A key=value rule is tried once per keyword followed by an assignment, from the start of the name the keyword is
     * in: its regex starts with that name, so one anchored attempt decides, where a search over a window would try
     * (and fail) at every position of a source file full of {@code key} and {@code token}.
     */
    private void runAtAssignments(SecretRules.Rule rule, int rank, String text, List<int[]> hits, List<Finding> found) {
        int covered = 0;
        for (int[] hit : hits) {
            if (hit[0] < covered || !assignmentFollows(text, hit[1])) {
                continue;
            }
            int start = hit[0];
            while (start > 0 && hit[0] - start < NAME_BEFORE && nameChar(text.charAt(start - 1))) {
                start--;
            }
            int lineEnd = text.indexOf('\n', hit[1]);
            int end = Math.min(lineEnd < 0 ? text.length() : lineEnd + 1, hit[1] + ASSIGNMENT_AFTER);
            Matcher matcher = rule.pattern().matcher(text).region(start, end);
            matcher.useTransparentBounds(true).useAnchoringBounds(false);
            if (matcher.lookingAt()) {
                covered = matcher.end();
                add(rule, rank, matcher, found);
            }
        }
    }

    private static boolean nameChar(char c) {
        return c == '_' || c == '.' || c == '-' || (c < 128 && Character.isLetterOrDigit(c));
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

    /**
     * A settings pattern over the whole text on a step budget. One that exhausts it is dropped for the rest of the
     * session with a warning: it would have hung every later output too. Its findings in this text are kept, and
     * the other rules still run, so only what this one pattern alone would have caught here can get through.
     */
    private void runBudgeted(SecretRules.Rule rule, int rank, String text, List<Finding> found) {
        if (dropped.contains(rule.id())) {
            return;
        }
        Matcher matcher = rule.pattern().matcher(new BudgetedText(text));
        try {
            while (matcher.find()) {
                add(rule, rank, matcher, found);
            }
        } catch (BudgetedText.Exhausted | StackOverflowError e) {
            if (dropped.add(rule.id())) {
                onDropped.accept("The redaction pattern '" + rule.id() + "' from the settings was dropped for this"
                        + " session: it took too long on a " + text.length() + "-character output (its regex"
                        + " backtracks without bound); fix it in the settings file.");
            }
        }
    }

    private void run(SecretRules.Rule rule, int rank, String text, int from, int to, List<Finding> found) {
        Matcher matcher = rule.pattern().matcher(text).region(from, to);
        matcher.useTransparentBounds(true).useAnchoringBounds(false);
        while (matcher.find()) {
            add(rule, rank, matcher, found);
        }
    }

    private void add(SecretRules.Rule rule, int rank, Matcher matcher, List<Finding> found) {
        int group = secretGroup(matcher);
        String secret = matcher.group(group);
        if (secret.isEmpty() || allowedValues.contains(secret) || secret.contains("[REDACTED:")) {
            return;
        }
        if (!rules.allowed(rule, secret, matcher.group())) {
            found.add(new Finding(matcher.start(group), matcher.end(group), rule.id(), rank, rule.expands()));
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
                // Overlapping secrets become one: redacting either alone would leave part of the other in clear. The
                // one expands only if both do: an untrusted pattern must not stretch a trusted secret over its text.
                boolean expands = last.expands() && finding.expands();
                if (finding.end() > last.end() || expands != last.expands()) {
                    kept.set(
                            kept.size() - 1,
                            new Finding(
                                    last.start(),
                                    Math.max(finding.end(), last.end()),
                                    last.id(),
                                    last.rank(),
                                    expands));
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
}
