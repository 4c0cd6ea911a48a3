package dev.dockhand.cli.session;

import dev.dockhand.cli.config.CheckpointSettings;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.core.checkpoint.Checkpoint;
import dev.dockhand.core.checkpoint.CheckpointStore;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.scheduler.CallCheckpoints;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of one run: the workspace's store, opened, warmed (its first snapshot reads every file) and pruned
 * on a thread of its own as soon as the model first asks for a tool that may change the workspace (before that call is
 * prepared), so no model request waits for it and a run that only reads or answers never opens it; and what each
 * checkpoint is to name, the session and the user message of the turn, followed as the conversation grows.
 */
public final class SessionCheckpoints implements CallCheckpoints {
    /** How long closing waits for the first snapshot to be saved before leaving it to its thread. */
    private static final long CLOSE_WAIT_MILLIS = 10_000;

    private final CompletableFuture<CheckpointStore> store;
    private final Thread opening;
    /** Whether a tool of this name may change the workspace, so that its call gets a checkpoint. */
    private final Predicate<String> mayChange;

    private boolean opened;
    private String sessionId = "";
    /** How many messages the session's transcript holds, as read back: where the next one will stand. */
    private int messages;

    private int turn;
    private String userMessage = "";

    private SessionCheckpoints(CompletableFuture<CheckpointStore> store, Thread opening, Predicate<String> mayChange) {
        this.store = store;
        this.opening = opening;
        this.mayChange = mayChange;
    }

    /** Where every workspace's checkpoints are kept: {@code <home>/checkpoints}. */
    public static Path root(CliEnvironment environment) {
        return environment.home().resolve("checkpoints");
    }

    /** Opens the store of the working directory; its snapshot and pruning go on in the background. */
    public static SessionCheckpoints start(
            CheckpointSettings settings, CliEnvironment environment, Predicate<String> mayChange) {
        CompletableFuture<CheckpointStore> store = new CompletableFuture<>();
        Thread opening = new Thread(
                () -> {
                    try {
                        store.complete(open(settings, environment));
                    } catch (IOException | RuntimeException e) {
                        LoggerFactory.getLogger(SessionCheckpoints.class).warn("the checkpoints cannot be kept", e);
                        store.completeExceptionally(e);
                        return;
                    }
                    prepare(store.join());
                },
                "dockhand-checkpoints");
        opening.setDaemon(true);
        return new SessionCheckpoints(store, opening, mayChange);
    }

    /** Opens the working directory's store for a command that reads or restores it. */
    public static CheckpointStore open(CheckpointSettings settings, CliEnvironment environment) throws IOException {
        return CheckpointStore.open(
                root(environment),
                environment.workingDirectory(),
                settings.maxFileSize(),
                List.of(environment.home(), environment.settingsHome()));
    }

    private static void prepare(CheckpointStore store) {
        try {
            store.warm();
            store.prune(Instant.now(), CheckpointStore.MAX_AGE, CheckpointStore.MAX_BYTES);
        } catch (IOException | RuntimeException e) {
            // The checkpoints before calls still work; they only take longer, or the store stays larger.
            LoggerFactory.getLogger(SessionCheckpoints.class).warn("preparing the checkpoints failed", e);
        }
    }

    /** A new or resumed session whose transcript already holds {@code messages} messages. */
    public synchronized void session(String id, int messages) {
        this.sessionId = id;
        this.messages = messages;
        this.turn = messages;
        this.userMessage = "";
    }

    /** A message the conversation accepted (and the transcript recorded). */
    public synchronized void observe(Message message) {
        if (message instanceof Message.Assistant reply
                && reply.toolCalls().stream().anyMatch(call -> mayChange.test(call.name()))) {
            openInBackground();
        }
        // What a Stop hook sends the model back with belongs to the turn it ends, so one /undo takes all of it back.
        if (message instanceof Message.User user && !user.fromHook()) {
            turn = messages;
            userMessage = user.text();
        }
        messages++;
    }

    /** Starts opening the store, once. */
    private synchronized void openInBackground() {
        if (!opened) {
            opened = true;
            opening.start();
        }
    }

    /** The store, once open; starts opening it if nothing did yet, and waits for that. */
    public CheckpointStore store() throws IOException {
        openInBackground();
        try {
            return store.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io
                    ? io
                    : new IOException(e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the checkpoints were opened", e);
        }
    }

    @Override
    public Taken before(ToolCall call, String summary) throws IOException {
        CheckpointStore opened = store();
        String session;
        int at;
        String message;
        synchronized (this) {
            session = sessionId;
            at = turn;
            message = userMessage;
        }
        Checkpoint taken = opened.begin(session, at, message, call.name(), call.id(), summary);
        return () -> opened.finish(taken);
    }

    /**
     * Closes the store once its first snapshot and pruning are done, so the next run finds the index saved and no
     * lock held; a first snapshot of a huge workspace still going after a while is left to its daemon thread.
     */
    public void close() {
        synchronized (this) {
            if (!opened) {
                return;
            }
        }
        try {
            opening.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!opening.isAlive() && store.isDone() && !store.isCompletedExceptionally()) {
            store.join().close();
        }
    }
}
