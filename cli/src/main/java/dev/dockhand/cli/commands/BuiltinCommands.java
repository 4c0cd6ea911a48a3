package dev.dockhand.cli.commands;

import java.util.Set;

/**
 * The names of the REPL's built-in slash commands, which no custom command may take. Kept here, not read from the
 * REPL's table, so that a {@code -p} run knows them without loading the line editor; a test holds the two lists equal.
 */
public final class BuiltinCommands {
    /** Every built-in command, {@code /exit} (another name for {@code /quit}) and {@code /init} among them. */
    public static final Set<String> NAMES = Set.of(
            "help",
            "clear",
            "model",
            "approval-mode",
            "tools",
            "stats",
            "thinking",
            "memory",
            "compress",
            "ps",
            "resume",
            "init",
            "permissions",
            "agents",
            "checkpoints",
            "undo",
            "rewind",
            "mcp",
            "quit",
            "exit");

    private BuiltinCommands() {}
}
