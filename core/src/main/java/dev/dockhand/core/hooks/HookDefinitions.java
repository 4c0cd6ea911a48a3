package dev.dockhand.core.hooks;

import dev.dockhand.core.settings.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The hooks of a session, read from the settings' {@code "hooks"} block (Claude Code's shape: event name, then
 * matchers, each with its commands) and checked: a hook without a command, a time-out below one second or a matcher
 * that is not a regular expression is an error for the user; an event or hook type Dockhand does not run is a
 * notice, so that a Claude Code configuration brought as it is still works for the events both know.
 */
public final class HookDefinitions {
    /** A hook's time-out when it names none, as in Claude Code. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 60;

    /**
     * How many times Stop hooks may send the model back to work in one turn when {@code stopHookLimit} is not set:
     * enough for a check that wants a fix and a second look, few enough that a hook that always objects costs a few
     * requests rather than the whole turn limit.
     */
    public static final int DEFAULT_STOP_LIMIT = 3;

    public static final HookDefinitions NONE = new HookDefinitions(Map.of(), DEFAULT_STOP_LIMIT, List.of());

    /** A name Claude Code would take literally (or as a {@code |} list); anything else is a regular expression. */
    private static final Pattern PLAIN_NAMES = Pattern.compile("[A-Za-z0-9_|-]+");

    /** One command to run at {@code event} for subjects its matcher accepts. */
    public record Hook(HookEvent event, String matcher, String command, Duration timeout) {
        /**
         * Whether the hook runs for {@code subject} (a tool name, or SessionStart's source): an empty or absent
         * matcher and {@code *} accept everything; letters, digits, {@code _}, {@code -} and {@code |} name subjects
         * exactly; anything else is a regular expression found anywhere in the subject, as Claude Code tests it
         * (anchor it with {@code ^…$} for whole names).
         */
        boolean matches(String subject) {
            if (matcher == null || matcher.isEmpty() || matcher.equals("*")) {
                return true;
            }
            if (PLAIN_NAMES.matcher(matcher).matches()) {
                return Arrays.asList(matcher.split("\\|")).contains(subject);
            }
            return Pattern.compile(matcher).matcher(subject).find();
        }
    }

    private final Map<HookEvent, List<Hook>> hooks;
    private final int stopLimit;
    private final List<String> notices;

    private HookDefinitions(Map<HookEvent, List<Hook>> hooks, int stopLimit, List<String> notices) {
        this.hooks = hooks;
        this.stopLimit = stopLimit;
        this.notices = List.copyOf(notices);
    }

    /**
     * Reads the {@code "hooks"} block (null for none) and {@code stopHookLimit} (null for the default).
     *
     * @throws IllegalArgumentException with one sentence for the user, naming the event, when a hook cannot run
     */
    public static HookDefinitions of(Map<String, List<Settings.HookMatcher>> configured, Integer stopHookLimit) {
        if (stopHookLimit != null && stopHookLimit < 0) {
            throw new IllegalArgumentException("stopHookLimit must be 0 or more, was " + stopHookLimit + ".");
        }
        Map<HookEvent, List<Hook>> byEvent = new EnumMap<>(HookEvent.class);
        Set<String> unknownEvents = new LinkedHashSet<>();
        Set<String> unknownTypes = new LinkedHashSet<>();
        if (configured != null) {
            for (Map.Entry<String, List<Settings.HookMatcher>> entry : configured.entrySet()) {
                HookEvent event = HookEvent.named(entry.getKey()).orElse(null);
                if (event == null) {
                    unknownEvents.add(entry.getKey());
                    continue;
                }
                List<Hook> list = new ArrayList<>();
                for (Settings.HookMatcher matcher :
                        entry.getValue() == null ? List.<Settings.HookMatcher>of() : entry.getValue()) {
                    read(event, matcher, list, unknownTypes);
                }
                if (!list.isEmpty()) {
                    byEvent.put(event, List.copyOf(list));
                }
            }
        }
        List<String> notices = new ArrayList<>();
        if (!unknownEvents.isEmpty()) {
            notices.add("hooks: Dockhand runs no " + String.join(", ", unknownEvents) + " hooks (it runs "
                    + Arrays.stream(HookEvent.values()).map(HookEvent::wireName).collect(Collectors.joining(", "))
                    + "); they are ignored.");
        }
        if (!unknownTypes.isEmpty()) {
            notices.add("hooks: hooks of type " + String.join(", ", unknownTypes)
                    + " are ignored; Dockhand runs hooks of type command.");
        }
        return new HookDefinitions(
                Map.copyOf(byEvent), stopHookLimit == null ? DEFAULT_STOP_LIMIT : stopHookLimit, notices);
    }

    private static void read(HookEvent event, Settings.HookMatcher entry, List<Hook> into, Set<String> unknownTypes) {
        if (entry == null || entry.hooks() == null) {
            return;
        }
        String where = "hooks." + event.wireName();
        String matcher = entry.matcher();
        if (matcher != null
                && !matcher.isEmpty()
                && !matcher.equals("*")
                && !PLAIN_NAMES.matcher(matcher).matches()) {
            try {
                Pattern.compile(matcher);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(where + ": the matcher '" + matcher
                        + "' is not a valid regular expression (" + e.getDescription() + ").");
            }
        }
        for (Settings.HookCommand hook : entry.hooks()) {
            if (hook == null) {
                continue;
            }
            if (hook.type() != null && !hook.type().equals("command")) {
                unknownTypes.add("'" + hook.type() + "'");
                continue;
            }
            if (hook.command() == null || hook.command().isBlank()) {
                throw new IllegalArgumentException(where + ": a hook has no command; give each hook a \"command\".");
            }
            if (hook.timeout() != null && hook.timeout() < 1) {
                throw new IllegalArgumentException(where + ": the timeout of '" + hook.command()
                        + "' must be at least 1 (seconds), was " + hook.timeout() + ".");
            }
            int seconds = hook.timeout() == null ? DEFAULT_TIMEOUT_SECONDS : hook.timeout();
            into.add(new Hook(event, matcher, hook.command(), Duration.ofSeconds(seconds)));
        }
    }

    /**
     * The hooks to run at {@code event} for {@code subject} (a tool name for tool events, SessionStart's source;
     * ignored for UserPromptSubmit and Stop, which take no matcher), in the order the settings list them, a command
     * listed twice run once.
     */
    public List<Hook> matching(HookEvent event, String subject) {
        List<Hook> found = new ArrayList<>();
        Set<String> commands = new HashSet<>();
        for (Hook hook : hooks.getOrDefault(event, List.of())) {
            boolean applies = event == HookEvent.USER_PROMPT_SUBMIT || event == HookEvent.STOP || hook.matches(subject);
            if (applies && commands.add(hook.command())) {
                found.add(hook);
            }
        }
        return found;
    }

    public boolean isEmpty() {
        return hooks.isEmpty();
    }

    /** How many times Stop hooks may send the model back to work in one turn. */
    public int stopLimit() {
        return stopLimit;
    }

    /** What the user should know about hooks that will not run, one sentence each. */
    public List<String> notices() {
        return notices;
    }
}
