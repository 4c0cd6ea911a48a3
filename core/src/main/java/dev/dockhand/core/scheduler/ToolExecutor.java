package dev.dockhand.core.scheduler;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.output.OutputFiles;
import dev.dockhand.core.output.TruncatedOutput;
import dev.dockhand.core.redaction.LineRedactor;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.tool.OutputSink;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.WriteGuard;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs prepared calls on worker threads and waits for them in a way a cancel can cut short: a tool that ignores the
 * cancellation is abandoned after a grace period and reported as cancelled, so the turn never hangs on it.
 */
final class ToolExecutor {
    private static final long POLL_MILLIS = 50;
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(2);

    private final ToolEnvironment environment;
    private final AgentEventSink events;
    private final OutputFiles outputFiles;
    private final ExecutorService workers = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-tool");
        // Tool threads must never keep the JVM alive after the user has their answer or pressed Ctrl-C.
        thread.setDaemon(true);
        return thread;
    });

    ToolExecutor(ToolEnvironment environment, AgentEventSink events) {
        this.environment = environment;
        this.events = events;
        // Said once a session: every later call that loses output says so in its own status and result.
        this.outputFiles = new OutputFiles(
                environment.outputDir(),
                reason -> events.accept(new AgentEvent.Warning("a tool's output was too long for the model and could"
                        + " not be saved in " + environment.outputDir() + " (" + reason + "); the model got its first"
                        + " and last lines and a note that the rest is lost. Calls that lose output say so.")));
    }

    /**
     * Starts one call, as approved: with the values of the redactor's placeholders already in its arguments ({@link
     * PreparedCall#expanded}); its streamed lines go out redacted. The returned future never fails, failures become error results.
     */
    Future<Outcome> start(PreparedCall<?> prepared, Cancellation cancel, WriteGuard guard, Redactor redactor) {
        String id = prepared.call().id();
        OutputFiles files = outputFiles.forCall();
        LineRedactor lines = redactor.lines(line -> events.accept(new AgentEvent.ToolOutput(id, line)));
        ToolContext context = new ToolContext(
                environment.workspace(),
                environment.sandbox(),
                cancel,
                new OutputSink() {
                    @Override
                    public void line(String line) {
                        lines.line(line);
                    }

                    @Override
                    public void progress(double progress, Double total, String message) {
                        String said = message == null
                                ? null
                                : redactor.redact(message).text();
                        events.accept(new AgentEvent.ToolProgress(id, progress, total, said));
                    }
                },
                id,
                environment.limits(),
                environment.outputDir(),
                guard,
                files);
        return workers.submit(() -> {
            Outcome outcome = run(prepared, context);
            lines.finish();
            // Read as the tool returns: a cancel that comes after it has finished does not change its result.
            boolean cancelledWhileRunning = cancel.isCancelled();
            ToolResult result =
                    RunEndings.withSomeText(outcome.result(), prepared.tool().name());
            result = prepared.tool().pagesItsOutput() ? result : limited(result, context);
            result = marked(result, files);
            return new Outcome(cancelledWhileRunning ? RunEndings.afterCancel(result) : result, outcome.duration());
        });
    }

    /** A result whose output was cut without a saved copy says so on its status line, not only to the model. */
    private static ToolResult marked(ToolResult result, OutputFiles files) {
        if (files.lost().isEmpty()) {
            return result;
        }
        String display = result.display();
        int end = display.indexOf('\n');
        String first = end < 0 ? display : display.substring(0, end);
        String rest = end < 0 ? "" : display.substring(end);
        String note = "output cut, the rest not saved: " + files.lost().get();
        return result.withText(
                result.llmContent(), (first.isEmpty() ? note : first + " · " + note) + rest, result.error());
    }

    /**
     * {@link #withinLimits}, which saves the whole text to disk; if that fails, the result is cut in memory and says
     * that the rest is lost, rather than the call failing after its work is done.
     */
    private static ToolResult limited(ToolResult result, ToolContext context) {
        try {
            return withinLimits(result, context);
        } catch (RuntimeException | Error e) {
            log().error("keeping the output of call {} within its limits failed", context.callId(), e);
            String kept = Utf16.head(result.llmContent(), context.limits().maxChars());
            return result.withText(
                    kept
                            + "\n[Output cut at " + kept.length() + " characters; the rest could not be saved (" + e
                            + ") and is lost.]",
                    result.display(),
                    result.error());
        }
    }

    /**
     * The output budget applies to every tool but those that page their own output within it ({@link
     * dev.dockhand.core.tool.Tool#pagesItsOutput}: read_file): a result the tool did not keep within the limits is
     * cut to a head and a tail here, with the whole text saved for {@code read_file}. Tools that stream (the shell)
     * cut their own, which can overshoot by a status line and a marker, hence the slack.
     */
    static ToolResult withinLimits(ToolResult result, ToolContext context) {
        String content = result.llmContent();
        int slackChars = 1000;
        int slackLines = 20;
        if (content.length() <= context.limits().maxChars() + slackChars
                && content.lines()
                                .limit(context.limits().maxLines() + slackLines + 1L)
                                .count()
                        <= context.limits().maxLines() + slackLines) {
            return result;
        }
        try (TruncatedOutput output = context.newOutput()) {
            content.lines().forEach(output::appendLine);
            // The images are not text and are not cut; the whole output on disk names them, so it is the whole.
            result.images().forEach(image -> output.appendLine(image.label("sent to the model beside this text")));
            return result.withText(output.text(), result.display(), result.error());
        }
    }

    /** The result of running one call and how long it took. */
    record Outcome(ToolResult result, Duration duration) {}

    private static Outcome run(PreparedCall<?> prepared, ToolContext context) {
        long start = System.nanoTime();
        ToolResult result;
        try {
            result = prepared.execute(context);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result = ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled this call before it finished.");
        } catch (RuntimeException | Error e) {
            // Errors too: a StackOverflowError from a regex on a long line is the model's input, not a dead JVM.
            log().error(
                            "tool {} failed on call {}",
                            prepared.tool().name(),
                            prepared.call().id(),
                            e);
            result = ToolResult.error(
                    ToolErrorType.INTERNAL,
                    prepared.tool().name() + " failed unexpectedly: " + e + ". This is a Dockhand bug, not a problem"
                            + " with the arguments; try another way.");
        }
        return new Outcome(result, Duration.ofNanos(System.nanoTime() - start));
    }

    /** Waits for a started call; after a cancel, waits at most the grace period, then abandons it. */
    Outcome await(Future<Outcome> future, Cancellation cancel, long startNanos) throws InterruptedException {
        try {
            while (!cancel.isCancelled()) {
                try {
                    return future.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException stillRunning) {
                    // Poll again: a cancel must be noticed even while the tool blocks.
                }
            }
            try {
                return future.get(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException ignoresCancel) {
                future.cancel(true);
                log().warn("abandoned a tool call that ignored cancellation for {}", CANCEL_GRACE);
                return new Outcome(
                        ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled this call before it finished."),
                        Duration.ofNanos(System.nanoTime() - startNanos));
            }
        } catch (ExecutionException e) {
            log().error("a tool runner failed outside its guard", e.getCause());
            return new Outcome(
                    ToolResult.error(
                            ToolErrorType.INTERNAL,
                            "The call failed inside Dockhand (" + e.getCause() + "). This is a Dockhand bug, not a"
                                    + " problem with the arguments; try another way."),
                    Duration.ofNanos(System.nanoTime() - startNanos));
        }
    }

    /** Fetched when something goes wrong, not held in a field: SLF4J's start-up is not worth paying on every run. */
    private static Logger log() {
        return LoggerFactory.getLogger(ToolExecutor.class);
    }
}
