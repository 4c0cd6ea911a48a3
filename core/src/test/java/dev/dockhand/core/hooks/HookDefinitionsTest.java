package dev.dockhand.core.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dockhand.core.settings.Settings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HookDefinitionsTest {
    private static Settings.HookMatcher matcher(String matcher, String... commands) {
        return new Settings.HookMatcher(
                matcher,
                List.of(commands).stream()
                        .map(command -> new Settings.HookCommand("command", command, null))
                        .toList());
    }

    private static List<String> commandsFor(HookDefinitions definitions, String tool) {
        return definitions.matching(HookEvent.PRE_TOOL_USE, tool).stream()
                .map(HookDefinitions.Hook::command)
                .toList();
    }

    @Test
    void matchersNameToolsExactlyAsAListOrAsARegularExpressionFoundAnywhere() {
        HookDefinitions definitions = HookDefinitions.of(
                Map.of(
                        "PreToolUse",
                        List.of(
                                matcher("run_shell_command", "exact"),
                                matcher("edit|write_file", "list"),
                                matcher("mcp__.*", "regex"),
                                matcher("^read_.*$", "anchored"),
                                matcher("", "empty"),
                                matcher(null, "absent"),
                                matcher("*", "star"),
                                matcher("mcp__everything__get-sum", "dashed"))),
                null);

        assertEquals(List.of("exact", "empty", "absent", "star"), commandsFor(definitions, "run_shell_command"));
        assertEquals(List.of("list", "empty", "absent", "star"), commandsFor(definitions, "write_file"));
        // "run" alone is not the tool run_shell_command: a plain name is matched whole.
        assertEquals(List.of("empty", "absent", "star"), commandsFor(definitions, "run"));
        assertEquals(
                List.of("regex", "empty", "absent", "star", "dashed"),
                commandsFor(definitions, "mcp__everything__get-sum"));
        // Found anywhere, as Claude Code tests a matcher: "mcp__.*" also finds a name that merely contains it.
        assertEquals(List.of("regex", "empty", "absent", "star"), commandsFor(definitions, "my_mcp__tool"));
        assertEquals(List.of("anchored", "empty", "absent", "star"), commandsFor(definitions, "read_file"));
    }

    @Test
    void aCommandListedTwiceRunsOnceAndTheDefaultTimeoutIsSixtySeconds() {
        HookDefinitions definitions = HookDefinitions.of(
                Map.of("PostToolUse", List.of(matcher("edit", "fmt"), matcher("", "fmt", "lint"))), null);

        assertEquals(
                List.of(
                        new HookDefinitions.Hook(HookEvent.POST_TOOL_USE, "edit", "fmt", Duration.ofSeconds(60)),
                        new HookDefinitions.Hook(HookEvent.POST_TOOL_USE, "", "lint", Duration.ofSeconds(60))),
                definitions.matching(HookEvent.POST_TOOL_USE, "edit"));
    }

    @Test
    void sessionStartMatchesItsSourceAndPromptAndStopHooksIgnoreTheirMatcher() {
        HookDefinitions definitions = HookDefinitions.of(
                Map.of(
                        "SessionStart", List.of(matcher("startup", "fresh"), matcher("resume|clear", "again")),
                        "Stop", List.of(matcher("anything", "check"))),
                null);

        assertEquals(
                List.of("fresh"),
                definitions.matching(HookEvent.SESSION_START, "startup").stream()
                        .map(HookDefinitions.Hook::command)
                        .toList());
        assertEquals(
                List.of("check"),
                definitions.matching(HookEvent.STOP, null).stream()
                        .map(HookDefinitions.Hook::command)
                        .toList());
    }

    @Test
    void eventsAndTypesDockhandDoesNotRunAreNoticesAndTheOthersStillRun() {
        Map<String, List<Settings.HookMatcher>> configured = new LinkedHashMap<>();
        configured.put("Notification", List.of(matcher("", "notify")));
        configured.put("PreCompact", List.of(matcher("", "save")));
        configured.put(
                "Stop",
                List.of(new Settings.HookMatcher(
                        null,
                        List.of(
                                new Settings.HookCommand("prompt", "Is the work done?", null),
                                new Settings.HookCommand("command", "check", 5)))));

        HookDefinitions definitions = HookDefinitions.of(configured, 2);

        assertEquals(
                List.of(
                        "hooks: Dockhand runs no Notification, PreCompact hooks (it runs PreToolUse, PostToolUse,"
                                + " UserPromptSubmit, Stop, SessionStart); they are ignored.",
                        "hooks: hooks of type 'prompt' are ignored; Dockhand runs hooks of type command."),
                definitions.notices());
        assertEquals(
                List.of(new HookDefinitions.Hook(HookEvent.STOP, null, "check", Duration.ofSeconds(5))),
                definitions.matching(HookEvent.STOP, null));
        assertEquals(2, definitions.stopLimit());
    }

    @Test
    void aHookThatCannotRunIsAnErrorNamingItsEvent() {
        assertEquals(
                "hooks.PreToolUse: the matcher 'edit(' is not a valid regular expression (Unclosed group).",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HookDefinitions.of(Map.of("PreToolUse", List.of(matcher("edit(", "x"))), null))
                        .getMessage());
        assertEquals(
                "hooks.Stop: a hook has no command; give each hook a \"command\".",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HookDefinitions.of(Map.of("Stop", List.of(matcher(null, " "))), null))
                        .getMessage());
        assertEquals(
                "hooks.Stop: the timeout of 'x' must be at least 1 (seconds), was 0.",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HookDefinitions.of(
                                        Map.of(
                                                "Stop",
                                                List.of(new Settings.HookMatcher(
                                                        null, List.of(new Settings.HookCommand(null, "x", 0))))),
                                        null))
                        .getMessage());
        assertEquals(
                "stopHookLimit must be 0 or more, was -1.",
                assertThrows(IllegalArgumentException.class, () -> HookDefinitions.of(Map.of(), -1))
                        .getMessage());
    }

    @Test
    void withoutSettingsThereAreNoHooksAndTheStopLimitIsThree() {
        HookDefinitions definitions = HookDefinitions.of(null, null);

        assertEquals(List.of(true, 3), List.of(definitions.isEmpty(), definitions.stopLimit()));
    }
}
