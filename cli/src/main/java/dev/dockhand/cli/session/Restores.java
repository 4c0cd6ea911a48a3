package dev.dockhand.cli.session;

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
     * restore overwrites.
     */
    public static List<String> describe(RestorePlan plan) {
        List<String> lines = new ArrayList<>();
        for (RestorePlan.FileRestore file : plan.files()) {
            if (file.action() == RestorePlan.Action.KEEP) {
                lines.add("  keep     " + file.path() + "   (older than the call, never recorded: ignored or too large"
                        + " then, so it is not removed)");
                continue;
            }
            lines.add((file.action() == RestorePlan.Action.REMOVE ? "  remove   " : "  restore  ")
                    + file.path()
                    + (file.changedSince() ? "   (changed since by hand: your change is overwritten)" : ""));
        }
        List<String> byHand = plan.changedSince();
        if (!byHand.isEmpty()) {
            lines.add("Changed since the checkpoint, not by Dockhand: " + String.join(", ", byHand) + ".");
        }
        return lines;
    }

    /** How long a restore waits for a copy back under way before it gives up, rather than hang the REPL. */
    static final Duration TURN_WAIT = Duration.ofSeconds(30);

    /**
     * Restores the plan and marks the checkpoints it takes back as undone, each session from the earliest turn among
     * them, so the next undo goes back further. The restore writes the workspace holding the sandbox's host-write turn
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

    /** One line per file the restore left as it is, saying why. */
    public static List<String> skipped(CheckpointStore.Restored restored) {
        List<String> lines = new ArrayList<>();
        restored.skipped().forEach((path, why) -> lines.add("  not restored  " + path + "   (" + why + ")"));
        return lines;
    }

    /** {@code ID  TIME  TOOL  SUMMARY  (N files)}, for the command and the REPL's {@code /checkpoints}. */
    public static String line(Checkpoint checkpoint) {
        int count = checkpoint.files().size();
        return checkpoint.id() + "  " + checkpoint.time() + "  " + checkpoint.tool() + "  "
                + dev.dockhand.cli.environment.Rendering.shorten(checkpoint.summary()) + "  ("
                + (checkpoint.after().isEmpty() ? "unfinished" : count + (count == 1 ? " file" : " files")) + ")";
    }
}
