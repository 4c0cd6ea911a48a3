package dev.dockhand.core.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The permission rules in force, and what they say about one call: a pure function of the rules and the call's
 * {@link CallFacts}. Deny beats ask beats allow; a call no rule names is left to the approval mode.
 *
 * <p>A shell command is looked at part by part ({@link ShellCommands}): a deny or ask rule that matches any part
 * matches the command, and so does one that matches what a part runs through a wrapper ({@code sudo rm x},
 * {@code env A=1 rm x}, {@code bash -c 'rm x'}); an allow rule answers only when the split understood the whole line
 * and every part matches an allow rule. A file tool's path is matched as given (normalised) and as it really is
 * through symbolic links: deny and ask match either, allow must match both.
 */
public record PermissionRules(List<PermissionRule> rules) {
    public static final PermissionRules NONE = new PermissionRules(List.of());

    /** Commands that run the rest of their words as a command of their own. */
    private static final Set<String> WRAPPERS =
            Set.of("sudo", "doas", "env", "command", "builtin", "exec", "nohup", "nice", "time", "timeout", "xargs");

    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh");

    /** How deep {@code bash -c "bash -c …"} is followed. */
    private static final int MAX_DEPTH = 3;

    public PermissionRules {
        rules = List.copyOf(rules);
    }

    /** What the rules say about a call, and the rule that says it. */
    public record Verdict(Optional<PermissionRule.Decision> decision, Optional<PermissionRule> rule) {
        static final Verdict NONE = new Verdict(Optional.empty(), Optional.empty());

        static Verdict by(PermissionRule rule) {
            return new Verdict(Optional.of(rule.decision()), Optional.of(rule));
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
        return allowedBy(call).map(Verdict::by).orElse(Verdict.NONE);
    }

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
            case PATH -> call.paths().stream().anyMatch(rule::matchesPath);
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
                if (!split.complete() || split.commands().isEmpty()) {
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
     * {@code " *"}; for a fetch, its host; for any other tool, the tool. Empty when the command is not understood
     * whole or a part does not start with a plain word, since no prefix would then say what it allows.
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
                    if (!words.get(0).matches("[A-Za-z0-9_./+-]+")) {
                        yield List.of();
                    }
                    String prefix = words.size() > 1 && words.get(1).matches("[a-z][a-z0-9_:-]*")
                            ? words.get(0) + " " + words.get(1)
                            : words.get(0);
                    String rule = call.tool() + "(" + prefix + " *)";
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
            while (start < words.size() && words.get(start).matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
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
}
