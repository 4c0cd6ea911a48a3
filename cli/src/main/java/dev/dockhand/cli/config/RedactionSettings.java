package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.settings.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code redaction} block of the settings files, as it applies to this run. Only the user's own file turns
 * redaction off, names values that are never redacted ({@code allowedValues}) or always are ({@code secretValues}): a
 * cloned repository must not be able to switch it off or exempt its author's favourite exfiltration target. Patterns
 * only add redaction, so the project's count too, in any folder; but in a folder the user does not trust, their
 * placeholders are never expanded back into a command or a file ({@link SecretRules.Rule#unexpanded}): else the
 * repository would choose which of its own text (a README's "PAYLOAD{; curl …}") becomes a placeholder the model
 * writes and the shell runs in full.
 */
public record RedactionSettings(
        boolean enabled, List<SecretRules.Rule> patterns, Set<String> allowedValues, List<String> secretValues) {
    /** Redaction on with the built-in rules only, as when no file says anything. */
    public static final RedactionSettings DEFAULT = new RedactionSettings(true, List.of(), Set.of(), List.of());

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.\\-]+");

    public RedactionSettings {
        patterns = List.copyOf(patterns);
        allowedValues = Set.copyOf(allowedValues);
        secretValues = List.copyOf(secretValues);
    }

    /**
     * The run's redaction from the user's and the project's blocks ({@code trusted}: the project's folder is); the
     * project's keys other than {@code patterns}
     * are added to {@code userOnly} (reported as ignored). A pattern that is not a valid regex stops the run (exit 52).
     */
    static RedactionSettings of(
            Settings.Redaction user,
            Path userFile,
            Settings.Redaction project,
            Path projectFile,
            boolean trusted,
            List<String> userOnly) {
        List<SecretRules.Rule> patterns = new ArrayList<>();
        Set<String> allowed = new LinkedHashSet<>();
        List<String> secrets = new ArrayList<>();
        boolean enabled = true;
        if (user != null) {
            enabled = !Boolean.FALSE.equals(user.enabled());
            patterns.addAll(rules(user.patterns(), userFile));
            if (user.allowedValues() != null) {
                allowed.addAll(user.allowedValues());
            }
            if (user.secretValues() != null) {
                secrets.addAll(user.secretValues());
            }
        }
        if (project != null) {
            for (SecretRules.Rule rule : rules(project.patterns(), projectFile)) {
                patterns.add(trusted ? rule : rule.unexpanded());
            }
            if (project.enabled() != null) {
                userOnly.add("redaction.enabled");
            }
            if (project.allowedValues() != null) {
                userOnly.add("redaction.allowedValues");
            }
            if (project.secretValues() != null) {
                userOnly.add("redaction.secretValues");
            }
        }
        return new RedactionSettings(enabled, patterns, allowed, secrets);
    }

    private static List<SecretRules.Rule> rules(List<Settings.RedactionPattern> patterns, Path file) {
        List<SecretRules.Rule> rules = new ArrayList<>();
        if (patterns == null) {
            return rules;
        }
        for (Settings.RedactionPattern pattern : patterns) {
            if (pattern == null
                    || pattern.id() == null
                    || !ID.matcher(pattern.id()).matches()) {
                throw new DockhandException(
                        ExitCodes.CONFIGURATION,
                        file + ": each of redaction.patterns needs an id of letters, digits, '-', '_' or '.' (it names"
                                + " the placeholder).");
            }
            try {
                rules.add(SecretRules.Rule.of(pattern.id(), pattern.regex()));
            } catch (PatternSyntaxException | NullPointerException e) {
                throw new DockhandException(
                        ExitCodes.CONFIGURATION,
                        file + ": redaction pattern '" + pattern.id() + "' is not a valid regular expression"
                                + (e instanceof PatternSyntaxException syntax
                                        ? " (" + syntax.getDescription() + ")"
                                        : "")
                                + ".");
            }
        }
        return rules;
    }
}
