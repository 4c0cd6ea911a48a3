package dev.dockhand.core.hooks;

import java.util.Arrays;
import java.util.Optional;

/** The points of a session where hooks run, under Claude Code's names, which are the keys of {@code "hooks"}. */
public enum HookEvent {
    /** Before a call's approval: may block the call or change its arguments. */
    PRE_TOOL_USE("PreToolUse"),
    /** After a call ran: may add a note to the result the model reads. */
    POST_TOOL_USE("PostToolUse"),
    /** Before a prompt joins the conversation: may add context to it or block it. */
    USER_PROMPT_SUBMIT("UserPromptSubmit"),
    /** When the model ends its turn: may ask it to go on. */
    STOP("Stop"),
    /** When a conversation starts, is cleared or resumed: may add context to its first prompt. */
    SESSION_START("SessionStart");

    private final String wireName;

    HookEvent(String wireName) {
        this.wireName = wireName;
    }

    /** The name in the settings and in the hook's input ({@code hook_event_name}). */
    public String wireName() {
        return wireName;
    }

    public static Optional<HookEvent> named(String name) {
        return Arrays.stream(values())
                .filter(event -> event.wireName.equals(name))
                .findFirst();
    }
}
