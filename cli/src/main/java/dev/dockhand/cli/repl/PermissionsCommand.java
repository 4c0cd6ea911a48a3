package dev.dockhand.cli.repl;

import dev.dockhand.cli.config.PermissionSettings;
import dev.dockhand.cli.config.edit.PermissionFiles;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.scheduler.PermissionRule;
import dev.dockhand.core.scheduler.PermissionRules;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * {@code /permissions}: the rules in force, numbered, deny first, each with where it comes from (the user's settings,
 * their block for this folder, the project's settings, or a tool allowed for this session at a question), and
 * {@code /permissions remove N}, which takes one out of the session and out of the file that holds it. Also saves
 * "always allow in this project" for {@link ReplApprover}.
 */
final class PermissionsCommand implements ReplApprover.Remember {
    private final CoreToolScheduler scheduler;
    private final ReplScreen screen;
    private final Path userSettings;
    private final Path projectSettings;
    private final Path folder;

    /** One listed rule: a settings rule, or a tool allowed for the session (rule empty). */
    private record Entry(PermissionRule.Decision decision, String text, String source, Optional<PermissionRule> rule) {}

    PermissionsCommand(
            CoreToolScheduler scheduler, ReplScreen screen, Path userSettings, Path projectSettings, Path folder) {
        this.scheduler = scheduler;
        this.screen = screen;
        this.userSettings = userSettings;
        this.projectSettings = projectSettings;
        this.folder = folder;
    }

    @Override
    public String alwaysAllow(List<String> rules) throws IOException {
        PermissionFiles.allowInFolder(userSettings, folder, rules);
        List<PermissionRule> added = new ArrayList<>();
        PermissionRules current = scheduler.permissions();
        for (String text : rules) {
            PermissionRule rule =
                    PermissionRule.parse(PermissionRule.Decision.ALLOW, text, PermissionSettings.USER_FOLDER);
            if (!current.rules().contains(rule)) {
                added.add(rule);
            }
        }
        scheduler.setPermissions(current.with(added));
        return userSettings.toString();
    }

    void run(String argument) {
        String[] words = argument.strip().split("\\s+");
        if (argument.isBlank() || words[0].equals("list")) {
            list();
        } else if (words[0].equals("remove") && words.length == 2 && words[1].matches("\\d{1,6}")) {
            remove(Integer.parseInt(words[1]));
        } else {
            screen.print("Use /permissions to list the rules, /permissions remove N to remove one.", TurnView.YELLOW);
        }
    }

    private List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        PermissionRules rules = scheduler.permissions();
        for (PermissionRule.Decision decision :
                List.of(PermissionRule.Decision.DENY, PermissionRule.Decision.ASK, PermissionRule.Decision.ALLOW)) {
            for (PermissionRule rule : rules.of(decision)) {
                entries.add(new Entry(decision, rule.text(), rule.source(), Optional.of(rule)));
            }
        }
        for (String tool : scheduler.sessionApprovals().names()) {
            entries.add(new Entry(PermissionRule.Decision.ALLOW, tool, PermissionSettings.SESSION, Optional.empty()));
        }
        return entries;
    }

    private void list() {
        List<Entry> entries = entries();
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedString(
                "Permission rules (deny beats ask beats allow; then the approval mode, "
                        + scheduler.approvalMode().cliName() + ")",
                AttributedStyle.BOLD));
        if (entries.isEmpty()) {
            lines.add(new AttributedString("  none", TurnView.DIM));
        }
        int width =
                entries.stream().mapToInt(entry -> entry.text().length()).max().orElse(0);
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            lines.add(new AttributedString(String.format(
                    "  %2d  %-5s  %-" + width + "s  %s", i + 1, entry.decision().key(), entry.text(), entry.source())));
        }
        lines.add(new AttributedString("  /permissions remove N removes one.", TurnView.DIM));
        lines.add(new AttributedString("  user settings: " + userSettings, TurnView.DIM));
        lines.add(new AttributedString("  project settings: " + projectSettings, TurnView.DIM));
        screen.print(lines);
    }

    private String where(Entry entry) {
        return switch (entry.source()) {
            case PermissionSettings.USER, PermissionSettings.USER_FOLDER -> entry.source() + " (" + userSettings + ")";
            case PermissionSettings.PROJECT -> entry.source() + " (" + projectSettings + ")";
            default -> entry.source();
        };
    }

    private void remove(int number) {
        List<Entry> entries = entries();
        if (number < 1 || number > entries.size()) {
            screen.print(
                    "There is no rule " + number + "; /permissions lists " + entries.size() + ".", TurnView.YELLOW);
            return;
        }
        Entry entry = entries.get(number - 1);
        if (entry.rule().isEmpty()) {
            scheduler.sessionApprovals().remove(entry.text());
            screen.print("Removed: allow " + entry.text() + " (session); its calls ask again.", TurnView.DIM);
            return;
        }
        PermissionRule rule = entry.rule().get();
        try {
            switch (rule.source()) {
                case PermissionSettings.USER -> PermissionFiles.remove(
                        userSettings, true, Optional.empty(), rule.decision(), rule.text());
                case PermissionSettings.USER_FOLDER -> PermissionFiles.remove(
                        userSettings, true, Optional.of(folder), rule.decision(), rule.text());
                case PermissionSettings.PROJECT -> PermissionFiles.remove(
                        projectSettings, false, Optional.empty(), rule.decision(), rule.text());
                default -> {
                    // A rule of no file lives in the session only.
                }
            }
        } catch (IOException e) {
            screen.print("Could not remove " + rule.text() + ": " + e.getMessage(), TurnView.RED);
            return;
        }
        scheduler.setPermissions(scheduler.permissions().without(rule));
        screen.print(
                "Removed: " + rule.decision().key() + " " + rule.text() + " (" + where(entry) + ").", TurnView.DIM);
    }
}
