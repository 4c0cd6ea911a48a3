package dev.dockhand.cli.config;

import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.core.hooks.HookDefinitions;
import dev.dockhand.core.settings.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code hooks} and {@code stopHookLimit} of the settings files. Hooks are commands that run on this machine,
 * outside the sandbox, so a project's run only in a trusted folder (its hooks are then added after the user's, as
 * Claude Code runs the hooks of every settings file); an untrusted project's {@code stopHookLimit} counts only when it
 * is lower. A hook that cannot run (no command, a bad matcher) stops the run with exit 52, naming its file.
 */
final class HookSettings {
    private HookSettings() {}

    static void apply(
            Settings project,
            Path projectFile,
            Settings user,
            Path userFile,
            boolean trusted,
            OptionValues command,
            List<String> ignored) {
        checked(user.hooks(), userFile);
        Map<String, List<Settings.HookMatcher>> hooks = new LinkedHashMap<>();
        add(hooks, user.hooks());
        boolean projectHooks = project.hooks() != null && !project.hooks().isEmpty();
        if (projectHooks && trusted) {
            checked(project.hooks(), projectFile);
            add(hooks, project.hooks());
        } else if (projectHooks) {
            ignored.add("hooks");
        }
        Integer limit = user.stopHookLimit();
        if (project.stopHookLimit() != null) {
            int without = limit == null ? HookDefinitions.DEFAULT_STOP_LIMIT : limit;
            if (trusted || project.stopHookLimit() <= without) {
                limit = project.stopHookLimit();
            } else {
                ignored.add("stopHookLimit");
            }
        }
        try {
            command.hooks = HookDefinitions.of(hooks, limit);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, e.getMessage());
        }
    }

    /**
     * Each hook as {@code dockhand config} and the trust question list it: {@code hooks.EVENT} (or
     * {@code hooks.EVENT[matcher]}) and the command it runs on this machine.
     */
    static List<Map.Entry<String, String>> described(Map<String, List<Settings.HookMatcher>> hooks) {
        List<Map.Entry<String, String>> lines = new ArrayList<>();
        if (hooks == null) {
            return lines;
        }
        hooks.forEach((event, matchers) -> {
            for (Settings.HookMatcher matcher : matchers == null ? List.<Settings.HookMatcher>of() : matchers) {
                // An untrusted project's hooks were never checked: a null entry is listed as nothing, not a crash.
                if (matcher == null) {
                    continue;
                }
                String key = "hooks." + event
                        + (matcher.matcher() == null || matcher.matcher().isEmpty()
                                ? ""
                                : "[" + matcher.matcher() + "]");
                for (Settings.HookCommand hook :
                        matcher.hooks() == null ? List.<Settings.HookCommand>of() : matcher.hooks()) {
                    if (hook != null) {
                        lines.add(Map.entry(key, String.valueOf(hook.command())));
                    }
                }
            }
        });
        return lines;
    }

    private static void checked(Map<String, List<Settings.HookMatcher>> hooks, Path file) {
        try {
            HookDefinitions.of(hooks, null);
        } catch (IllegalArgumentException e) {
            throw new DockhandException(ExitCodes.CONFIGURATION, file + ": " + e.getMessage());
        }
    }

    private static void add(
            Map<String, List<Settings.HookMatcher>> into, Map<String, List<Settings.HookMatcher>> from) {
        if (from == null) {
            return;
        }
        from.forEach((event, matchers) -> {
            List<Settings.HookMatcher> all = new ArrayList<>(into.getOrDefault(event, List.of()));
            if (matchers != null) {
                all.addAll(matchers);
            }
            into.put(event, all);
        });
    }
}
