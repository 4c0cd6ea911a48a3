package dev.dockhand.cli.repl;

import dev.dockhand.cli.commands.CommandTurn;
import dev.dockhand.cli.commands.CustomCommand;
import dev.dockhand.cli.commands.InitCommand;
import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.model.ProviderException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;

/** The REPL's turns that come from a command: a custom command's ({@link CommandTurn}) and {@code /init}'s. */
final class ReplCommandTurns {
    /** A turn's work, run on the REPL's turn thread. */
    @FunctionalInterface
    interface TurnWork {
        TurnResult run(Cancellation cancel) throws ProviderException;
    }

    /** Runs a turn's work cancellably with the spinner going; empty when it failed, after saying why. */
    @FunctionalInterface
    interface Turns {
        Optional<TurnResult> run(TurnWork work);
    }

    private final AgentSession session;
    private final ReplScreen screen;
    private final Terminal terminal;
    private final boolean trusted;
    private final Pricing pricing;
    private final Turns turns;
    private final Consumer<TurnResult> ended;

    ReplCommandTurns(
            AgentSession session,
            ReplScreen screen,
            Terminal terminal,
            boolean trusted,
            Pricing pricing,
            Turns turns,
            Consumer<TurnResult> ended) {
        this.session = session;
        this.screen = screen;
        this.terminal = terminal;
        this.trusted = trusted;
        this.pricing = pricing;
        this.turns = turns;
        this.ended = ended;
    }

    /**
     * A custom command's turn. {@code @path} in the arguments the user typed attaches files as in any prompt; an
     * {@code @} in the command's file is left as written, since whoever wrote the file chose it, not the user.
     */
    void custom(CustomCommand command, String arguments) {
        Optional<String> refused = command.refusal(arguments);
        if (refused.isPresent()) {
            screen.print(Rendering.printable(refused.get()), TurnView.YELLOW);
            return;
        }
        CommandTurn planned;
        try {
            planned = CommandTurn.plan(command, arguments, trusted, pricing, session);
        } catch (DockhandException e) {
            screen.print("/" + command.name() + ": " + e.getMessage(), TurnView.YELLOW);
            return;
        }
        screen.print(new AttributedString(
                "  " + Rendering.printable(command.file().toString())
                        + planned.model()
                                .map(model -> " · on " + model.label() + " for this turn")
                                .orElse(""),
                TurnView.DIM));
        for (String note : planned.notes()) {
            screen.print(new AttributedString("  " + Rendering.printable(note), TurnView.YELLOW));
        }
        Attachments.Expanded attached = Attachments.expand(arguments, session.workspace());
        for (String note : attached.notes()) {
            screen.print(new AttributedString("  " + note, TurnView.DIM));
        }
        String attachments = attached.message().substring(arguments.length());
        CommandTurn turn = new CommandTurn(
                attachments.isEmpty() ? planned.prompt() : planned.prompt().stripTrailing() + attachments,
                planned.allowedTools(),
                planned.allowRules(),
                planned.model(),
                planned.notes());
        turns.run(cancel -> turn.run(session, cancel)).ifPresent(ended);
    }

    /** {@code /init}: asks before replacing an existing AGENTS.md, runs the turn, and says whether it was written. */
    void init(String argument) {
        boolean force;
        try {
            force = InitCommand.force(argument);
        } catch (DockhandException e) {
            screen.print(e.getMessage(), TurnView.YELLOW);
            return;
        }
        Path root = session.workspace().root();
        Optional<String> before = InitCommand.content(root);
        if (before.isPresent() && !force) {
            int key = ReplKeys.ask(
                    terminal,
                    "yYnN",
                    () -> screen.print(List.of(
                            new AttributedString(
                                    "? " + InitCommand.FILE + " exists. Replace it?", TurnView.YELLOW.bold()),
                            new AttributedString(
                                    "  The model reads it first and keeps what is still true. y replace · n keep it",
                                    TurnView.DIM))));
            if (key != 'y' && key != 'Y') {
                screen.print("  " + InitCommand.FILE + " was kept.", TurnView.DIM);
                return;
            }
        }
        Optional<TurnResult> result =
                turns.run(cancel -> session.loop().run(InitCommand.prompt(before.isPresent()), cancel));
        result.ifPresent(ended);
        Optional<String> after = InitCommand.content(root);
        if (after.isPresent() && !after.equals(before)) {
            long lines = after.get().lines().count();
            screen.print(
                    "✓ " + InitCommand.FILE + " written (" + lines + (lines == 1 ? " line" : " lines")
                            + "); new conversations read it (/clear starts one).",
                    TurnView.GREEN);
        } else if (result.isPresent() && result.get().outcome() == TurnResult.Outcome.ANSWERED) {
            screen.print(
                    "⚠ the model did not write " + InitCommand.FILE + "; run /init again, or try another model.",
                    TurnView.YELLOW);
        }
    }
}
