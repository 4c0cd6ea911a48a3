package dev.dockhand.cli.session;

import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.checkpoint.Checkpoint;
import dev.dockhand.core.checkpoint.CheckpointStore;
import dev.dockhand.core.checkpoint.RestorePlan;
import dev.dockhand.core.sandbox.HostWrites;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the headless command and the REPL share about restoring checkpoints: the summary, and the restore itself. */
public final class Restores {
    private Restores() {}

    /**
     * One line per file, saying what happens to it, then one naming the files changed by hand since, which the
     * restore overwrites. The names are the model's choice (its commands made the files), so each is made printable:
     * an escape sequence or a line end in one must not rewrite or hide the lines before the question.
     */
    public static List<String> describe(RestorePlan plan) {
        List<String> lines = new ArrayList<>();
        for (RestorePlan.FileRestore file : plan.files()) {
            String path = Rendering.printable(file.path());
            if (file.action() == RestorePlan.Action.KEEP) {
                lines.add("  keep     " + path + "   (older than the call, never recorded: ignored or too large"
                        + " then, so it is not removed)");
                continue;
            }
            lines.add((file.action() == RestorePlan.Action.REMOVE ? "  remove   " : "  restore  ")
                    + path
                    + (file.changedSince() ? "   (changed since by hand: your change is overwritten)" : ""));
        }
        List<String> byHand =
                plan.changedSince().stream().map(Rendering::printable).toList();
        if (!byHand.isEmpty()) {
            lines.add("Changed since the checkpoint, not by Dockhand: " + String.join(", ", byHand) + ".");
        }
        return lines;
    }

    /** How long a restore waits for a copy back under way before it gives up, rather than hang the REPL. */
    static final Duration TURN_WAIT = Duration.ofSeconds(30);

    /**
     * Restores the plan and, when it restored anything, marks the checkpoints it takes back as undone, each session
     * from the earliest turn among them, so the next undo goes back further; a restore that restored nothing leaves
     * them as they were, to be tried again. The restore writes the workspace holding the sandbox's host-write turn
     * (as the file tools do): a copy back of a cancelled command still under way finishes first, and none starts over
     * the restored files until they are all written.
     */
    public static CheckpointStore.Restored restore(
            CheckpointStore store, RestorePlan plan, List<Checkpoint> undone, HostWrites hostWrites)
            throws IOException {
        CheckpointStore.Restored done;
        Optional<HostWrites.Turn> held;
        try {
            held = hostWrites.tryTake(TURN_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("the restore was interrupted before it began; nothing was restored", e);
        }
        if (held.isEmpty()) {
            throw new IOException("the sandbox is still copying back a stopped command's changes (its engine is slow to"
                    + " answer); nothing was restored, try again in a moment");
        }
        try (HostWrites.Turn turn = held.get()) {
            done = store.restore(plan);
        }
        if (done.restored().isEmpty()) {
            return done;
        }
        // The log lists checkpoints oldest first: each session's first one here is its earliest turn and time.
        Map<String, Checkpoint> first = new LinkedHashMap<>();
        for (Checkpoint checkpoint : undone) {
            first.putIfAbsent(checkpoint.sessionId(), checkpoint);
        }
        for (Checkpoint checkpoint : first.values()) {
            store.cut(checkpoint.sessionId(), checkpoint.turn(), checkpoint.time());
        }
        return done;
    }

    /** One line per file the restore left as it is, saying why; printable, as in {@link #describe}. */
    public static List<String> skipped(CheckpointStore.Restored restored) {
        List<String> lines = new ArrayList<>();
        restored.skipped()
                .forEach((path, why) -> lines.add(
                        "  not restored  " + Rendering.printable(path) + "   (" + Rendering.printable(why) + ")"));
        return lines;
    }

    /**
     * The line after a restore that left files out, saying how to try them again: the checkpoints it took back are
     * marked undone when anything was restored, so {@code /undo} would go one turn further back; the headless restore
     * of the same checkpoint takes them all again.
     */
    public static String partial(CheckpointStore.Restored restored, Checkpoint from) {
        int left = restored.skipped().size();
        return left + (left == 1 ? " file was" : " files were") + " not restored (above); once that is fixed,"
                + " dockhand checkpoints restore " + from.id() + " restores " + (left == 1 ? "it" : "them") + ".";
    }

    /** {@code ID  TIME  TOOL  SUMMARY  (N files)}, for the command and the REPL's {@code /checkpoints}. */
    public static String line(Checkpoint checkpoint) {
        int count = checkpoint.files().size();
        return checkpoint.id() + "  " + checkpoint.time() + "  " + checkpoint.tool() + "  "
                + Rendering.printable(Rendering.shorten(checkpoint.summary())) + "  ("
                + (checkpoint.after().isEmpty() ? "unfinished" : count + (count == 1 ? " file" : " files")) + ")";
    }
}
