package dev.dockhand.core.redaction;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The credential shapes the redactor looks for, read from {@code secret-rules.txt} beside this class: gitleaks' rules
 * (see the file's header for the source, commit and licence) and a few of detect-secrets' and Dockhand's own. A rule
 * has an id (which names its placeholders), keywords (lower case; the rule only runs near one of them), an entropy
 * threshold for the secret, and allow lists of secrets that match its shape but are not secrets.
 */
public final class SecretRules {
    private static final String FILE = "secret-rules.txt";
    private static volatile SecretRules builtIn;

    private final List<Rule> rules;
    private final List<Pattern> globalAllow;
    private final List<String> globalStopwords;
    private final KeywordIndex keywordIndex;

    /**
     * One credential shape. {@code multiLine}: its secret may span lines (a private key block). {@code fromSettings}:
     * a pattern of the user's or a project's settings, which nobody vetted, so it runs on a step budget
     * ({@link BudgetedText}) and is dropped for the session when it exceeds it. {@code expands}: its placeholders get
     * their values back in the arguments of the calls that act on this machine; false for a pattern of a project the
     * user does not trust, which then decides only what the model does not see, never what runs.
     */
    public record Rule(
            String id,
            Pattern pattern,
            double entropy,
            List<String> keywords,
            List<Pattern> allow,
            List<Pattern> allowMatch,
            List<String> stopwords,
            boolean multiLine,
            boolean assignment,
            boolean fromSettings,
            boolean expands) {
        public Rule {
            Objects.requireNonNull(id, "id");
            keywords = List.copyOf(keywords);
            allow = List.copyOf(allow);
            allowMatch = List.copyOf(allowMatch);
            stopwords = List.copyOf(stopwords);
        }

        /** A rule of the user's or the project's settings: no keywords, so it runs on all text. */
        public static Rule of(String id, String regex) {
            return new Rule(
                    id,
                    Pattern.compile(regex),
                    0,
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    false,
                    false,
                    true,
                    true);
        }

        /**
         * This rule with placeholders that are never expanded: for the patterns of a project the user has not
         * trusted, which could otherwise pick text of the project's (a README's) to be put into a command, unseen by
         * the user's permission rules and approval question.
         */
        public Rule unexpanded() {
            return new Rule(
                    id,
                    pattern,
                    entropy,
                    keywords,
                    allow,
                    allowMatch,
                    stopwords,
                    multiLine,
                    assignment,
                    fromSettings,
                    false);
        }
    }

    private SecretRules(List<Rule> rules, List<Pattern> globalAllow, List<String> globalStopwords) {
        this.rules = List.copyOf(rules);
        this.globalAllow = List.copyOf(globalAllow);
        this.globalStopwords = List.copyOf(globalStopwords);
        this.keywordIndex = new KeywordIndex(this.rules);
    }

    KeywordIndex keywordIndex() {
        return keywordIndex;
    }

    /** The rules shipped with Dockhand, read once. */
    public static SecretRules builtIn() {
        SecretRules read = builtIn;
        if (read == null) {
            try (InputStream in = SecretRules.class.getResourceAsStream(FILE)) {
                if (in == null) {
                    throw new IllegalStateException(FILE + " is missing from Dockhand's classes");
                }
                read = parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            builtIn = read;
        }
        return read;
    }

    /** These rules and {@code extra} ones after them. */
    public SecretRules with(List<Rule> extra) {
        List<Rule> all = new ArrayList<>(rules);
        all.addAll(extra);
        return new SecretRules(all, globalAllow, globalStopwords);
    }

    /** Only the rule {@code id}, with the same global allow lists: to test one rule alone. */
    SecretRules only(String id) {
        return new SecretRules(
                rules.stream().filter(rule -> rule.id().equals(id)).toList(), globalAllow, globalStopwords);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** Whether {@code secret}, found by {@code rule} in {@code match}, is allowed (not a secret) by the allow lists. */
    boolean allowed(Rule rule, String secret, String match) {
        if (rule.entropy() > 0 && Entropy.shannon(secret) < rule.entropy()) {
            return true;
        }
        for (Pattern pattern : rule.allow()) {
            if (pattern.matcher(secret).find()) {
                return true;
            }
        }
        for (Pattern pattern : rule.allowMatch()) {
            if (pattern.matcher(match).find()) {
                return true;
            }
        }
        String lower = secret.toLowerCase(Locale.ROOT);
        for (String stopword : rule.stopwords()) {
            if (lower.contains(stopword)) {
                return true;
            }
        }
        for (Pattern pattern : globalAllow) {
            if (pattern.matcher(secret).find()) {
                return true;
            }
        }
        for (String stopword : globalStopwords) {
            if (lower.contains(stopword)) {
                return true;
            }
        }
        return false;
    }

    static SecretRules parse(BufferedReader reader) throws IOException {
        Map<String, Rule> rules = new LinkedHashMap<>();
        List<Pattern> globalAllow = new ArrayList<>();
        List<String> globalStop = new ArrayList<>();
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            try {
                switch (fields[0]) {
                    case "rule" -> {
                        String regex = fields[4];
                        rules.put(
                                fields[1],
                                new Rule(
                                        fields[1],
                                        Pattern.compile(regex),
                                        fields[2].equals("-") ? 0 : Double.parseDouble(fields[2]),
                                        fields[3].equals("-") ? List.of() : Arrays.asList(fields[3].split(",")),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        regex.contains("\\s\\S") || regex.contains("\\n"),
                                        regex.contains("(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)")
                                                || regex.contains("[A-Z0-9_]*="),
                                        false,
                                        true));
                    }
                    case "allow", "allow-match", "stop" -> {
                        Rule rule = rules.get(fields[1]);
                        if (rule == null) {
                            throw new IllegalStateException("no rule " + fields[1] + " before it");
                        }
                        rules.put(rule.id(), adding(rule, fields[0], fields[2]));
                    }
                    case "global-allow" -> globalAllow.add(Pattern.compile(fields[1]));
                    case "global-stop" -> globalStop.addAll(Arrays.asList(fields[1].split(",")));
                    default -> throw new IllegalStateException("unknown entry " + fields[0]);
                }
            } catch (PatternSyntaxException | ArrayIndexOutOfBoundsException | IllegalStateException e) {
                throw new IllegalStateException(FILE + " line " + number + ": " + e.getMessage(), e);
            }
        }
        return new SecretRules(new ArrayList<>(rules.values()), globalAllow, globalStop);
    }

    private static Rule adding(Rule rule, String kind, String value) {
        List<Pattern> allow = new ArrayList<>(rule.allow());
        List<Pattern> allowMatch = new ArrayList<>(rule.allowMatch());
        List<String> stop = new ArrayList<>(rule.stopwords());
        switch (kind) {
            case "allow" -> allow.add(Pattern.compile(value));
            case "allow-match" -> allowMatch.add(Pattern.compile(value));
            default -> stop.addAll(Arrays.asList(value.split(",")));
        }
        return new Rule(
                rule.id(),
                rule.pattern(),
                rule.entropy(),
                rule.keywords(),
                allow,
                allowMatch,
                stop,
                rule.multiLine(),
                rule.assignment(),
                rule.fromSettings(),
                rule.expands());
    }
}
