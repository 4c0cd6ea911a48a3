package dev.dockhand.cli.repl;

import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.cli.session.Restores;
import dev.dockhand.cli.session.SessionCheckpoints;
import dev.dockhand.core.checkpoint.Checkpoint;
import dev.dockhand.core.checkpoint.CheckpointStore;
import dev.dockhand.core.checkpoint.RestorePlan;
import dev.dockhand.core.conversation.Message;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * {@code /checkpoints}, {@code /undo} and {@code /rewind}: the session's checkpoints, and the way back to the files (and
 * the conversation) as they were before a turn. Every restore shows the files it changes and asks first.
 */
final class CheckpointCommands {
    private final AgentSession session;
    private final ReplScreen screen;
    private final Terminal terminal;

    CheckpointCommands(AgentSession session, ReplScreen screen, Terminal terminal) {
        this.session = session;
        this.screen = screen;
        this.terminal = terminal;
    }

    /** A user turn of the session: its number (from 1), where its message stands, and the message. */
    record Turn(int number, int index, String text) {}

    private Optional<CheckpointStore> store() {
        Optional<SessionCheckpoints> checkpoints = session.checkpoints();
        if (checkpoints.isEmpty()) {
            screen.print("Checkpoints are off (checkpoints.enabled is false in the settings).", TurnView.YELLOW);
            return Optional.empty();
        }
        try {
            return Optional.of(checkpoints.get().store());
        } catch (IOException | RuntimeException e) {
            screen.print("The checkpoints cannot be read: " + e.getMessage(), TurnView.YELLOW);
            return Optional.empty();
        }
    }

    void list() {
        Optional<CheckpointStore> store = store();
        if (store.isEmpty()) {
            return;
        }
        try {
            List<Checkpoint> live = store.get().live(session.sessionId());
            if (live.isEmpty()) {
                screen.print(
                        "No checkpoint in this session yet: one is taken before each edit or command.", TurnView.DIM);
                return;
            }
            List<AttributedString> lines = new ArrayList<>();
            for (Checkpoint checkpoint : live) {
                lines.add(new AttributedString(Restores.line(checkpoint)));
            }
            lines.add(new AttributedString(
                    "/undo takes back the last turn's changes; /rewind goes back to before any turn.", TurnView.DIM));
            screen.print(lines);
        } catch (IOException | RuntimeException e) {
            screen.print("The checkpoints cannot be read: " + e.getMessage(), TurnView.YELLOW);
        }
    }

    void undo() {
        Optional<CheckpointStore> store = store();
        if (store.isEmpty()) {
            return;
        }
        try {
            List<Checkpoint> live = store.get().live(session.sessionId());
            if (live.isEmpty()) {
                screen.print(
                        "Nothing to undo: no call of this session changed files, or all was undone.", TurnView.DIM);
                return;
            }
            int turn = live.get(live.size() - 1).turn();
            List<Checkpoint> undone = live.stream()
                    .filter(checkpoint -> checkpoint.turn() == turn)
                    .toList();
            RestorePlan plan = store.get().plan(undone);
            String title = "Undo the changes of the turn \""
                    + Rendering.printable(Rendering.shorten(undone.get(0).userMessage())) + "\"";
            if (confirm(title, plan)) {
                CheckpointStore.Restored done = Restores.restore(
                        store.get(), plan, undone, session.sandbox().hostWrites());
                screen.print(restored(done.restored()), TurnView.GREEN);
                printSkipped(done);
                if (!done.skipped().isEmpty()) {
                    screen.print(
                            done.restored().isEmpty()
                                    ? "Nothing was restored; /undo offers this turn again."
                                    : Restores.partial(done, undone.get(0)),
                            TurnView.YELLOW);
                }
            }
        } catch (IOException | RuntimeException e) {
            screen.print("The undo failed: " + Rendering.printable(String.valueOf(e.getMessage())), TurnView.RED);
        }
    }

    void rewind(String argument) {
        List<Turn> turns = turns();
        if (turns.isEmpty()) {
            screen.print("This session has no turn to rewind to yet.", TurnView.DIM);
            return;
        }
        if (argument.isEmpty()) {
            List<AttributedString> lines = new ArrayList<>();
            for (Turn turn : turns) {
                lines.add(new AttributedString(turn.number() + ". " + Rendering.shorten(turn.text())));
            }
            lines.add(new AttributedString(
                    "/rewind N goes back to before turn N: its files, the conversation, or both.", TurnView.DIM));
            screen.print(lines);
            return;
        }
        Optional<Turn> chosen = turns.stream()
                .filter(turn -> String.valueOf(turn.number()).equals(argument))
                .findFirst();
        if (chosen.isEmpty()) {
            screen.print("There is no turn " + argument + "; /rewind lists them.", TurnView.YELLOW);
            return;
        }
        rewindTo(chosen.get());
    }

    private void rewindTo(Turn turn) {
        Optional<CheckpointStore> store = session.checkpoints().isPresent() ? store() : Optional.empty();
        List<Checkpoint> undone = List.of();
        RestorePlan plan = new RestorePlan(List.of());
        try {
            if (store.isPresent()) {
                undone = store.get().live(session.sessionId()).stream()
                        .filter(checkpoint -> checkpoint.turn() >= turn.index())
                        .toList();
                plan = store.get().plan(undone);
            }
        } catch (IOException | RuntimeException e) {
            screen.print("The checkpoints cannot be read: " + e.getMessage(), TurnView.YELLOW);
        }
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedString(
                "Rewind to before turn " + turn.number() + " \"" + Rendering.shorten(turn.text()) + "\":",
                AttributedStyle.BOLD));
        if (plan.isEmpty()) {
            lines.add(new AttributedString("  no file differs from then", TurnView.DIM));
        }
        Restores.describe(plan).forEach(line -> lines.add(new AttributedString(line)));
        int key = ReplKeys.ask(terminal, "fFcCbB", () -> {
            screen.print(lines);
            screen.print(new AttributedString(
                    "  [f] files  [c] conversation  [b] both  [Esc] cancel", AttributedStyle.BOLD));
        });
        if (key == ReplKeys.NO_ANSWER) {
            screen.print("  ⊘ nothing was rewound", TurnView.YELLOW);
            return;
        }
        boolean files = key != 'c' && key != 'C';
        boolean conversation = key != 'f' && key != 'F';
        if (files && store.isPresent()) {
            try {
                CheckpointStore.Restored done = Restores.restore(
                        store.get(), plan, undone, session.sandbox().hostWrites());
                store.get().cut(session.sessionId(), turn.index());
                screen.print("  " + restored(done.restored()), TurnView.GREEN);
                printSkipped(done);
            } catch (IOException | RuntimeException e) {
                screen.print("The files could not be restored: " + e.getMessage(), TurnView.RED);
                return;
            }
        }
        if (conversation) {
            session.rewind(turn.index());
            screen.print(
                    "  ✓ the conversation is back to before \"" + Rendering.shorten(turn.text()) + "\"",
                    TurnView.GREEN);
        }
    }

    /** The user turns of the session, as its transcript reads back. */
    private List<Turn> turns() {
        List<Message> messages = session.recordedMessages();
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof Message.User user && !user.fromHook()) {
                turns.add(new Turn(turns.size() + 1, i, user.text()));
            }
        }
        return turns;
    }

    /** Shows the plan and asks; true when the user said yes and there is something to do. */
    private boolean confirm(String title, RestorePlan plan) {
        if (plan.isEmpty()) {
            screen.print(title + ": the files are already as they were.", TurnView.DIM);
            return false;
        }
        List<AttributedString> lines = new ArrayList<>();
        lines.add(new AttributedString(title + ":", AttributedStyle.BOLD));
        Restores.describe(plan).forEach(line -> lines.add(new AttributedString(line)));
        int key = ReplKeys.ask(terminal, "yYnN", () -> {
            screen.print(lines);
            screen.print(new AttributedString("  Restore these files? [y/n]", AttributedStyle.BOLD));
        });
        if (key != 'y' && key != 'Y') {
            screen.print("  ⊘ nothing was restored", TurnView.YELLOW);
            return false;
        }
        return true;
    }

    private void printSkipped(CheckpointStore.Restored done) {
        if (!done.skipped().isEmpty()) {
            List<AttributedString> lines = new ArrayList<>();
            Restores.skipped(done).forEach(line -> lines.add(new AttributedString(line)));
            screen.print(lines);
        }
    }

    private static String restored(List<String> done) {
        return "✓ restored " + done.size() + (done.size() == 1 ? " file" : " files");
    }
}
