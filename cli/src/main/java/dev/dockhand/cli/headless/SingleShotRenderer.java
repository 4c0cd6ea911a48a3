package dev.dockhand.cli.headless;

import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.redaction.Redactor;
import java.io.PrintWriter;

/**
 * Renders a single-shot run for scripts and humans alike: the model's text on stdout exactly as it streams, and one
 * line per finished tool call on stderr (status, tool, key argument, outcome, duration), so stdout stays clean. The
 * model's reasoning goes to stderr as it streams with {@code --show-thinking}, else nowhere.
 */
public final class SingleShotRenderer implements AgentEventSink {
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean showThinking;
    private boolean lineOpen;
    private boolean thinkingOpen;

    SingleShotRenderer(PrintWriter out, PrintWriter err, boolean showThinking) {
        this.out = out;
        this.err = err;
        this.showThinking = showThinking;
    }

    @Override
    public synchronized void accept(AgentEvent event) {
        if (event instanceof AgentEvent.ReasoningDelta delta) {
            if (showThinking && !delta.text().isEmpty()) {
                // The provider's text, not ours: no escape sequence of it reaches the terminal.
                err.print(java.util.Arrays.stream(delta.text().split("\n", -1))
                        .map(Rendering::printable)
                        .collect(java.util.stream.Collectors.joining("\n")));
                err.flush();
                thinkingOpen = !delta.text().endsWith("\n");
            }
            return;
        }
        endThinking();
        if (event instanceof AgentEvent.TextDelta delta) {
            out.print(delta.text());
            out.flush();
            lineOpen = !delta.text().endsWith("\n");
        } else if (event instanceof AgentEvent.Retrying retrying) {
            endOpenLine();
            err.println("dockhand: " + Rendering.printable(retrying.reason()) + "; retrying in "
                    + Rendering.duration(retrying.delay()) + " (attempt " + (retrying.attempt() + 1) + " of "
                    + retrying.maxAttempts() + ").");
            err.flush();
        } else if (event instanceof AgentEvent.ReplyCutShort cut) {
            endOpenLine();
            err.println(
                    cut.reason() == FinishReason.CONTENT_FILTER
                            ? "dockhand: the provider's content filter stopped the reply."
                            : "dockhand: the reply reached the output token limit (--max-output-tokens) and was cut off.");
            err.flush();
        } else if (event instanceof AgentEvent.Warning warning) {
            endOpenLine();
            // A warning can quote what the model or a command chose (a path a command made): shown, never obeyed.
            err.println("dockhand: " + Rendering.printable(warning.message().replace('\n', ' ')));
            err.flush();
        } else if (event instanceof AgentEvent.ToolCallFinished finished) {
            endOpenLine();
            err.println(toolLine(finished) + redactedNote(finished));
            // A display of several lines (a plan, say) is meant to be read whole, under the summary line.
            finished.result()
                    .display()
                    .lines()
                    .skip(1)
                    .forEach(line -> err.println("    " + Rendering.printable(line)));
            err.flush();
        }
    }

    /** Ends the answer with a newline, so a shell prompt never follows it on the same line. */
    synchronized void finish() {
        endThinking();
        endOpenLine();
    }

    /** Ends the reasoning's last line on stderr before anything else is written. */
    private void endThinking() {
        if (thinkingOpen) {
            err.println();
            err.flush();
            thinkingOpen = false;
        }
    }

    private void endOpenLine() {
        if (lineOpen) {
            out.println();
            out.flush();
            lineOpen = false;
        }
    }

    /** " · 2 secrets redacted" when the call's result had secrets replaced by placeholders, else "". */
    public static String redactedNote(AgentEvent.ToolCallFinished finished) {
        int count = Redactor.count(finished.result().llmContent());
        return count == 0 ? "" : " · " + count + (count == 1 ? " secret" : " secrets") + " redacted";
    }

    public static String toolLine(AgentEvent.ToolCallFinished finished) {
        String mark =
                switch (finished.status()) {
                    case SUCCESS -> "✓";
                    case CANCELLED -> "⊘";
                    case ERROR, VALIDATING, AWAITING_APPROVAL, SCHEDULED, EXECUTING -> "✗";
                };
        // The call's name, its arguments and its output are the model's and the command's text.
        String summary =
                finished.summary().isEmpty() ? "" : " " + Rendering.printable(Rendering.shorten(finished.summary()));
        String outcome = finished.result().display().lines().findFirst().orElse("");
        return mark + " " + Rendering.printable(finished.call().name()) + summary + " · "
                + Rendering.printable(Rendering.shorten(outcome)) + " ("
                + Rendering.duration(finished.duration()) + ")";
    }
}
