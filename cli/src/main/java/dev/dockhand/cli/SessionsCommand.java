package dev.dockhand.cli;

import dev.dockhand.core.session.Sessions;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code dockhand sessions}: this folder's sessions, newest first, to continue with {@code --resume ID}. */
@Command(name = "sessions", description = "List this folder's sessions, newest first (continue one with --resume ID).")
final class SessionsCommand implements Callable<Integer> {
    private static final int PROMPT_CHARS = 60;

    @ParentCommand
    DockhandCommand parent;

    @Spec
    CommandSpec spec;

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
                    prompt.length() > PROMPT_CHARS ? prompt.substring(0, PROMPT_CHARS) + "…" : prompt);
        }
        out.flush();
        return ExitCodes.OK;
    }
}
