package dev.dockhand.core.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The permission rules in force, and what they say about one call: a pure function of the rules and the call's
 * {@link CallFacts}. Deny beats ask beats allow; a call no rule names is left to the approval mode.
 *
 * <p>A shell command is looked at part by part ({@link ShellCommands}): a deny or ask rule that matches any part
 * matches the command, and so does one that matches what a part runs through a wrapper ({@code sudo rm x},
 * {@code env A=1 rm x}, {@code bash -c 'rm x'}); an allow rule answers only when the split understood the whole line
 * and every part matches an allow rule. A command whose name is known only when it runs ({@code $X x},
 * {@code $(echo rm) x}, {@code /bin/r[m] x}) is covered by no allow rule with a pattern, and is asked about when a
 * deny or ask rule exists, since those cannot be checked against it. A file tool's path is matched as given
 * (normalised) and as it really is through symbolic links: deny and ask match either, allow must match both; for a
 * tool that walks a folder (grep, glob, list_directory) they also match when they could match inside it.
 */
public record PermissionRules(List<PermissionRule> rules) {
    public static final PermissionRules NONE = new PermissionRules(List.of());

    /** Commands that run the rest of their words as a command of their own. */
    private static final Set<String> WRAPPERS =
            Set.of("sudo", "doas", "env", "command", "builtin", "exec", "nohup", "nice", "time", "timeout", "xargs");

    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh");

    /** Programs that run whatever script or code they are given: "always allow" saves their exact command line. */
    private static final Set<String> INTERPRETERS = Set.of(
            "sh", "bash", "zsh", "dash", "ksh", "python", "python3", "node", "ruby", "perl", "php", "deno", "bun");

    /** Each wrapper's options that take no argument; any other option makes its command unknown. */
    private static final Map<String, Set<String>> WRAPPER_FLAGS = Map.ofEntries(
            Map.entry("sudo", Set.of("-E", "-H", "-n", "-P", "-S", "-k", "-b")),
            Map.entry("doas", Set.of("-n")),
            Map.entry("env", Set.of("-i", "-", "-0", "--ignore-environment", "--null")),
            Map.entry("command", Set.of("-p")),
            Map.entry("builtin", Set.of()),
            Map.entry("exec", Set.of("-c", "-l")),
            Map.entry("nohup", Set.of()),
            Map.entry("nice", Set.of()),
            Map.entry("time", Set.of("-p")),
            Map.entry("timeout", Set.of("--foreground", "--preserve-status", "-v", "--verbose")),
            Map.entry("xargs", Set.of("-0", "-r", "-t", "-x", "--null", "--no-run-if-empty", "--verbose")));

    /** Each wrapper's options that take an argument, as the next word or joined to the option ({@code -uroot}). */
    private static final Map<String, Set<String>> WRAPPER_ARGUMENTS = Map.ofEntries(
            Map.entry("sudo", Set.of("-u", "-g", "-C", "-D", "-p", "-r", "-t", "-T", "-U")),
            Map.entry("doas", Set.of("-u")),
            Map.entry("env", Set.of("-u", "-C")),
            Map.entry("command", Set.of()),
            Map.entry("builtin", Set.of()),
            Map.entry("exec", Set.of("-a")),
            Map.entry("nohup", Set.of()),
            Map.entry("nice", Set.of("-n")),
            Map.entry("time", Set.of()),
            Map.entry("timeout", Set.of("-s", "-k")),
            Map.entry("xargs", Set.of("-n", "-L", "-P", "-s", "-d", "-E", "-a", "-I")));

    private static final String ASSIGNMENT = "[A-Za-z_][A-Za-z0-9_]*=.*";

    /** How deep {@code bash -c "bash -c …"} is followed. */
    private static final int MAX_DEPTH = 3;

    public PermissionRules {
        rules = List.copyOf(rules);
    }

    /**
     * What the rules say about a call, and the rule that says it. {@code unchecked}: the call is asked about because
     * {@code rule} (a deny or ask rule) cannot be checked against it, its command's name being known only when it
     * runs.
     */
    public record Verdict(
            Optional<PermissionRule.Decision> decision, Optional<PermissionRule> rule, boolean unchecked) {
        static final Verdict NONE = new Verdict(Optional.empty(), Optional.empty(), false);

        static Verdict by(PermissionRule rule) {
            return new Verdict(Optional.of(rule.decision()), Optional.of(rule), false);
        }

        static Verdict uncheckable(PermissionRule rule) {
            return new Verdict(Optional.of(PermissionRule.Decision.ASK), Optional.of(rule), true);
        }

        public boolean is(PermissionRule.Decision wanted) {
            return decision.filter(wanted::equals).isPresent();
        }
    }

    public Verdict decide(CallFacts call) {
        for (PermissionRule.Decision decision : List.of(PermissionRule.Decision.DENY, PermissionRule.Decision.ASK)) {
            for (PermissionRule rule : of(decision)) {
                if (rule.names(call.tool()) && matchesAnyPart(rule, call)) {
                    return Verdict.by(rule);
                }
            }
        }
        if (PermissionRule.subjectOf(call.tool()) == PermissionRule.Subject.DOMAIN
                && call.host().isEmpty()) {
            // No host to match: a domain rule cannot be checked, so the user decides, as for an unreadable command.
            Optional<PermissionRule> guard =
                    first(rules, rule -> rule.decision() != PermissionRule.Decision.ALLOW && rule.names(call.tool()));
            if (guard.isPresent()) {
                return Verdict.uncheckable(guard.get());
            }
        }
        if (call.command().isPresent()) {
            // A deny or ask rule cannot be checked against a command whose name is known only when it runs.
            Optional<PermissionRule> guard =
                    first(rules, rule -> rule.decision() != PermissionRule.Decision.ALLOW && rule.names(call.tool()));
            if (guard.isPresent() && unreadable(call.command().get(), 0)) {
                return Verdict.uncheckable(guard.get());
            }
        }
        return allowedBy(call).map(Verdict::by).orElse(Verdict.NONE);
    }

    /** The tools that search or list everything under the folder they are given. */
    private static final Set<String> WALKERS = Set.of("grep", "glob", "list_directory");

    /** The rules of one decision, in the order they were given. */
    public List<PermissionRule> of(PermissionRule.Decision decision) {
        return rules.stream().filter(rule -> rule.decision() == decision).toList();
    }

    /** These rules and {@code more}. */
    public PermissionRules with(List<PermissionRule> more) {
        List<PermissionRule> all = new ArrayList<>(rules);
        all.addAll(more);
        return new PermissionRules(all);
    }

    /** These rules without {@code rule}. */
    public PermissionRules without(PermissionRule rule) {
        return new PermissionRules(rules.stream().filter(r -> !r.equals(rule)).toList());
    }

    private static boolean matchesAnyPart(PermissionRule rule, CallFacts call) {
        if (rule.pattern().isEmpty()) {
            return true;
        }
        return switch (PermissionRule.subjectOf(call.tool())) {
            case COMMAND -> call.command()
                    .map(command -> deniable(command, 0).stream().anyMatch(rule::matchesCommand))
                    .orElse(false);
            case PATH -> call.paths().stream().anyMatch(rule::matchesPath)
                    || (WALKERS.contains(call.tool()) && call.paths().stream().anyMatch(rule::mayMatchUnder));
            case DOMAIN -> call.host().map(rule::matchesHost).orElse(false);
            case NONE -> true;
        };
    }

    /** The allow rule that covers the whole call, if one does; for a command, one for each part. */
    private Optional<PermissionRule> allowedBy(CallFacts call) {
        List<PermissionRule> allows = of(PermissionRule.Decision.ALLOW).stream()
                .filter(rule -> rule.names(call.tool()))
                .toList();
        if (allows.isEmpty()) {
            return Optional.empty();
        }
        return switch (PermissionRule.subjectOf(call.tool())) {
            case COMMAND -> {
                Optional<PermissionRule> toolWide =
                        first(allows, rule -> rule.pattern().isEmpty());
                if (toolWide.isPresent()) {
                    yield toolWide;
                }
                ShellCommands.Split split = ShellCommands.split(call.command().orElse(""));
                if (!split.complete()
                        || split.commands().isEmpty()
                        || unreadable(call.command().orElse(""), 0)) {
                    yield Optional.empty();
                }
                PermissionRule last = null;
                for (ShellCommands.Command part : split.commands()) {
                    Optional<PermissionRule> covering = first(allows, rule -> rule.matchesCommand(part.text()));
                    if (covering.isEmpty()) {
                        yield Optional.empty();
                    }
                    last = covering.get();
                }
                yield Optional.ofNullable(last);
            }
            case PATH -> call.paths().isEmpty()
                    ? Optional.empty()
                    : first(allows, rule -> call.paths().stream().allMatch(rule::matchesPath));
            case DOMAIN -> first(
                    allows,
                    rule -> rule.pattern().isEmpty()
                            || call.host().map(rule::matchesHost).orElse(false));
            case NONE -> Optional.of(allows.get(0));
        };
    }

    /**
     * The allow rules that "always allow this" saves for a call: for a command, one per part, each its first word
     * and, when the next looks like a subcommand ({@code git status}, {@code npm test}), that too, followed by
     * {@code " *"}; for a wrapper, its words up to the command it runs and that command's first words
     * ({@code timeout 60 npm test *}); for a shell or interpreter, wrapped or not, the exact part, since what it runs is
     * in its arguments. For a fetch, its host; for any other tool, the tool. Empty when the command is not understood
     * whole, a part does not start with a plain word or a wrapper's command cannot be told from its options, since no
     * rule would then say what it allows.
     */
    public static List<String> alwaysAllowRules(CallFacts call) {
        return switch (PermissionRule.subjectOf(call.tool())) {
            case COMMAND -> {
                ShellCommands.Split split = ShellCommands.split(call.command().orElse(""));
                if (!split.complete() || split.commands().isEmpty()) {
                    yield List.of();
                }
                List<String> rules = new ArrayList<>();
                for (ShellCommands.Command part : split.commands()) {
                    List<String> words = part.words();
                    int command = 0;
                    while (command < words.size() && WRAPPERS.contains(name(words.get(command)))) {
                        OptionalInt wrapped = wrappedAt(words, command);
                        if (wrapped.isEmpty()) {
                            yield List.of();
                        }
                        command = wrapped.getAsInt();
                    }
                    if (!words.get(0).matches("[A-Za-z0-9_./+-]+")
                            || !words.get(command).matches("[A-Za-z0-9_./+-]+")
                            || words.subList(0, command).stream().anyMatch(word -> word.contains("*"))) {
                        yield List.of();
                    }
                    String rule;
                    if (INTERPRETERS.contains(name(words.get(command)))) {
                        // A * in the exact line would make it a pattern covering more than this line.
                        if (part.text().contains("*")) {
                            yield List.of();
                        }
                        rule = call.tool() + "(" + part.text() + ")";
                    } else {
                        int end = command + 1;
                        if (end < words.size() && words.get(end).matches("[a-z][a-z0-9_:-]*")) {
                            end++;
                        }
                        rule = call.tool() + "(" + String.join(" ", words.subList(0, end)) + " *)";
                    }
                    if (!rules.contains(rule)) {
                        rules.add(rule);
                    }
                }
                yield List.copyOf(rules);
            }
            case DOMAIN -> call.host()
                    .map(host -> List.of(call.tool() + "(domain:" + host + ")"))
                    .orElse(List.of());
            case PATH, NONE -> List.of(call.tool());
        };
    }

    private static Optional<PermissionRule> first(List<PermissionRule> rules, Predicate<PermissionRule> test) {
        return rules.stream().filter(test).findFirst();
    }

    /**
     * Every command text a deny or ask rule is matched against: each part as written, and what it runs through
     * leading variable assignments, wrappers and {@code sh -c}; and the whole line when the split did not understand
     * it all.
     */
    static List<String> deniable(String line, int depth) {
        ShellCommands.Split split = ShellCommands.split(line);
        List<String> texts = new ArrayList<>();
        if (!split.complete()) {
            // What the split did not understand may hide a command anywhere: each run of words from any word on.
            List<String> words = List.of(line.strip().split("[\\s;&|()`$<>\"'{}]+"));
            for (int from = 0; from < words.size(); from++) {
                texts.add(String.join(" ", words.subList(from, words.size())).strip());
            }
        }
        for (ShellCommands.Command part : split.commands()) {
            List<String> words = part.words();
            texts.add(part.text());
            int start = 0;
            while (start < words.size() && words.get(start).matches(ASSIGNMENT)) {
                start++;
            }
            if (start > 0 && start < words.size()) {
                texts.add(String.join(" ", words.subList(start, words.size())));
            }
            if (start < words.size() && words.get(start).contains("/")) {
                // /bin/rm is rm.
                String command = words.get(start);
                List<String> named = new ArrayList<>(words.subList(start, words.size()));
                named.set(0, command.substring(command.lastIndexOf('/') + 1));
                texts.add(String.join(" ", named));
            }
            if (start < words.size() && WRAPPERS.contains(words.get(start))) {
                // What a wrapper runs starts after its own options, whose arguments cannot be told from the
                // command without knowing each wrapper: every later word is taken as a possible start.
                for (int next = start + 1; next < words.size(); next++) {
                    texts.add(String.join(" ", words.subList(next, words.size())));
                }
            }
            // Only the command itself, or a word after a wrapper, may start a shell: "echo bash -c x" runs none.
            boolean wrapped = start < words.size() && WRAPPERS.contains(words.get(start));
            for (int at = start; depth < MAX_DEPTH && at < words.size(); at++) {
                String name = words.get(at).substring(words.get(at).lastIndexOf('/') + 1);
                List<String> rest = words.subList(at + 1, words.size());
                int script = rest.indexOf("-c");
                if (name.equals("eval") && !rest.isEmpty()) {
                    texts.addAll(deniable(String.join(" ", rest), depth + 1));
                } else if (SHELLS.contains(name) && script >= 0 && script + 1 < rest.size()) {
                    texts.addAll(deniable(rest.get(script + 1), depth + 1));
                }
                if (!wrapped) {
                    break;
                }
            }
        }
        return texts;
    }

    /** A command word's program: {@code /bin/rm} is {@code rm}. */
    private static String name(String word) {
        return word.substring(word.lastIndexOf('/') + 1);
    }

    /**
     * Where the command a wrapper at {@code at} runs starts, past the wrapper's options and assignments
     * ({@code env A=1 make}, {@code sudo -u me make}, {@code timeout -s KILL 60 make}); empty when an option the
     * wrapper is not known to take leaves it unclear, or nothing follows.
     */
    static OptionalInt wrappedAt(List<String> words, int at) {
        String wrapper = name(words.get(at));
        Set<String> flags = WRAPPER_FLAGS.get(wrapper);
        Set<String> arguments = WRAPPER_ARGUMENTS.get(wrapper);
        int next = at + 1;
        while (next < words.size()) {
            String word = words.get(next);
            if (word.equals("--")) {
                next++;
                break;
            }
            if ((wrapper.equals("env") || wrapper.equals("sudo")) && word.matches(ASSIGNMENT)) {
                next++;
            } else if (flags.contains(word)) {
                next++;
            } else if (arguments.contains(word)) {
                next += 2;
            } else if (word.length() > 2 && arguments.contains(word.substring(0, 2))) {
                next++;
            } else if (wrapper.equals("nice") && word.matches("-[0-9]+")) {
                next++;
            } else if (word.startsWith("-")) {
                return OptionalInt.empty();
            } else {
                break;
            }
        }
        if (wrapper.equals("timeout")) {
            if (next >= words.size() || !words.get(next).matches("[0-9.]+[smhd]?")) {
                return OptionalInt.empty();
            }
            next++;
        }
        return next < words.size() ? OptionalInt.of(next) : OptionalInt.empty();
    }

    /**
     * Whether some part of a command line runs a command whose name is known only when it runs: its command word
     * (after assignments, wrappers, {@code sh -c} and {@code eval}) holds an expansion ({@code $X}), a substitution or
     * a glob ({@code *}, {@code ?}, {@code […]}), so no rule can be checked against it.
     */
    static boolean unreadable(String line, int depth) {
        for (ShellCommands.Command part : ShellCommands.split(line).commands()) {
            List<String> words = part.words();
            int start = 0;
            while (start < words.size() && words.get(start).matches(ASSIGNMENT)) {
                start++;
            }
            if (start < words.size() && unreadable(words, start, depth)) {
                return true;
            }
        }
        return false;
    }

    private static boolean unreadable(List<String> words, int at, int depth) {
        String word = words.get(at);
        if (opaque(word)) {
            return true;
        }
        String name = name(word);
        List<String> rest = words.subList(at + 1, words.size());
        if (WRAPPERS.contains(name)) {
            OptionalInt wrapped = wrappedAt(words, at);
            if (wrapped.isPresent()) {
                return unreadable(words, wrapped.getAsInt(), depth);
            }
            // Any later word may be the command it runs.
            return rest.stream().anyMatch(PermissionRules::opaque);
        }
        if (depth >= MAX_DEPTH) {
            return false;
        }
        int script = rest.indexOf("-c");
        if (name.equals("eval") && !rest.isEmpty()) {
            return unreadable(String.join(" ", rest), depth + 1);
        }
        if (SHELLS.contains(name) && script >= 0 && script + 1 < rest.size()) {
            return unreadable(rest.get(script + 1), depth + 1);
        }
        return false;
    }

    /** Whether a word is only known when bash expands it: a $, a backtick, a substitution, or a glob. */
    private static boolean opaque(String word) {
        int open = word.indexOf('[');
        return word.contains("$")
                || word.contains("`")
                || word.contains("*")
                || word.contains("?")
                || (open >= 0 && word.indexOf(']', open + 1) > 0);
    }
}
