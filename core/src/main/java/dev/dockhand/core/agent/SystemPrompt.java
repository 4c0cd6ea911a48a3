package dev.dockhand.core.agent;

import java.nio.file.Path;
import java.time.LocalDate;

/**
 * The instructions every conversation starts with. Kept short: it is paid for on every request, and the tools'
 * own descriptions say how to use each tool.
 */
public final class SystemPrompt {
    private SystemPrompt() {}

    public static String build(Path workspace, String sandboxKind, LocalDate today) {
        return build(workspace, sandboxKind, today, ContextFiles.Context.EMPTY);
    }

    /** The prompt followed by the project's and the user's instruction files. */
    public static String build(Path workspace, String sandboxKind, LocalDate today, ContextFiles.Context context) {
        return base(workspace, sandboxKind, today) + context.promptSection();
    }

    private static String base(Path workspace, String sandboxKind, LocalDate today) {
        return "You are Dockhand, a coding assistant working in the user's project through tools.\n"
                + "Workspace: " + workspace + " (relative paths are relative to it; tools cannot reach outside it).\n"
                + "Commands run "
                + (sandboxKind.equals("docker")
                        ? "in a Docker container with no network."
                        : "directly on the user's machine.")
                + " Today is " + today + ".\n\n"
                + "- Read the relevant files before changing them; follow the project's existing style.\n"
                + "- Make the smallest change that does the job, then check it (build, tests) when the project has"
                + " a way to.\n"
                + "- Calls that edit files or run commands may need the user's approval. If one is refused, do not"
                + " repeat it unchanged: adapt, or ask.\n"
                + "- When a tool result reports an error, read it and correct your call.\n"
                + "- Answer concisely in Markdown. Say what you changed and anything left undone.";
    }
}
