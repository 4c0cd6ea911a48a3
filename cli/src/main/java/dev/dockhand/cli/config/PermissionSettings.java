package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.scheduler.PermissionRule;
import dev.dockhand.core.settings.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code permissions} of the settings files, as rules with where each was written: the user's own
 * ({@code permissions} at the top of {@code ~/.dockhand/settings.json}, and {@code permissions.projects} for this
 * folder, where "always allow in this project" writes), and the project's ({@code .dockhand/settings.json}). A
 * project's deny and ask rules only narrow what runs, so they count in any folder; its allow rules count only in a
 * trusted one. {@code permissions.projects} counts only in the user's file. A rule that cannot be read stops the run
 * (exit 52) with one sentence naming the file and the rule.
 */
public final class PermissionSettings {
    /** The source of the rules at the top of the user's file. */
    public static final String USER = "user settings";

    /** The source of the rules for this folder in the user's file. */
    public static final String USER_FOLDER = "user settings, this folder";

    /** The source of the project's rules. */
    public static final String PROJECT = "project settings";

    /** The source of tools the user allowed for the session at a question. */
    public static final String SESSION = "session";

    private PermissionSettings() {}

    static void apply(
            Settings project,
            Path projectFile,
            Settings user,
            Path userFile,
            Path folder,
            boolean trusted,
            OptionValues command,
            List<String> ignored,
            List<String> ignoredValues,
            List<String> userOnly) {
        List<PermissionRule> rules = new ArrayList<>();
        Settings.Permissions mine = user.permissions();
        if (mine != null) {
            add(rules, userFile, "permissions", mine.allow(), mine.ask(), mine.deny(), USER, true);
            Map<String, Settings.ProjectPermissions> projects = mine.projects();
            Settings.ProjectPermissions here = projects == null
                    ? null
                    : projects.get(FolderTrust.realPath(folder).toString());
            if (here != null) {
                String key = "permissions.projects[\"" + FolderTrust.realPath(folder) + "\"]";
                add(rules, userFile, key, here.allow(), here.ask(), here.deny(), USER_FOLDER, true);
            }
        }
        Settings.Permissions theirs = project.permissions();
        if (theirs != null) {
            add(rules, projectFile, "permissions", theirs.allow(), theirs.ask(), theirs.deny(), PROJECT, trusted);
            if (!trusted && theirs.allow() != null && !theirs.allow().isEmpty()) {
                ignored.add("permissions.allow");
                ignoredValues.add("permissions.allow = " + theirs.allow());
            }
            if (theirs.projects() != null) {
                userOnly.add("permissions.projects");
            }
        }
        command.permissionRules = List.copyOf(rules);
    }

    private static void add(
            List<PermissionRule> rules,
            Path file,
            String key,
            List<String> allow,
            List<String> ask,
            List<String> deny,
            String source,
            boolean allowsCount) {
        parse(rules, file, key, PermissionRule.Decision.DENY, deny, source);
        parse(rules, file, key, PermissionRule.Decision.ASK, ask, source);
        if (allowsCount) {
            parse(rules, file, key, PermissionRule.Decision.ALLOW, allow, source);
        }
    }

    private static void parse(
            List<PermissionRule> rules,
            Path file,
            String key,
            PermissionRule.Decision decision,
            List<String> texts,
            String source) {
        if (texts == null) {
            return;
        }
        for (String text : texts) {
            try {
                rules.add(PermissionRule.parse(decision, text, source));
            } catch (IllegalArgumentException e) {
                throw new DockhandException(
                        ExitCodes.CONFIGURATION,
                        file + ": " + key + "." + decision.key() + " \"" + text + "\" is not a permission rule: "
                                + e.getMessage());
            }
        }
    }
}
