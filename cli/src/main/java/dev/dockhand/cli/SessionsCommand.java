package dev.dockhand.cli;

import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.session.Sessions;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code dockhand sessions}: this folder's sessions, newest first, to continue with {@code --resume ID} (declared in
 * CommandLineSpec).
 */
public final class SessionsCommand implements Callable<Integer> {
    private static final int PROMPT_CHARS = 60;

    private final DockhandCommand parent;
    CommandSpec spec;

    SessionsCommand(DockhandCommand parent) {
        this.parent = parent;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        CliEnvironment environment = parent.environment();
        List<Sessions.Summary> sessions = new Sessions(environment.home(), environment.workingDirectory()).list();
        if (sessions.isEmpty()) {
            out.println("No sessions in this folder yet.");
        }
        for (Sessions.Summary session : sessions) {
            String prompt = Rendering.shorten(session.lastPrompt());
            out.printf(
                    "%s  %s  %d %s  %s%n",
                    session.id(),
                    session.started(),
                    session.turns(),
                    session.turns() == 1 ? "turn " : "turns",
                    prompt.length() > PROMPT_CHARS ? Utf16.head(prompt, PROMPT_CHARS) + "…" : prompt);
        }
        out.flush();
        return ExitCodes.OK;
    }
}
