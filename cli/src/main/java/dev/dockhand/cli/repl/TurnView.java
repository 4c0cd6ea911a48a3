package dev.dockhand.cli.repl;

import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.headless.SingleShotRenderer;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.TokenEstimator;
import dev.dockhand.core.scheduler.ToolCallStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Shows a turn in the REPL as it happens: the answer rendered from Markdown line by line as it streams, each tool
 * call as one line with a spinner while it runs (a shell command with its last output lines under it), then one
 * summary line with ✓, ✗ or ⊘ and the duration. Results are summarised, never dumped. The model's reasoning streams
 * dimmed under a spinner and, when it ends, is folded into one line, {@code thinking… (N tokens)}; with
 * {@code /thinking} it is printed in full instead, dimmed. A running sub-agent is one line, its call's (the agent and
 * its task) with the tool it runs now; Ctrl-O expands it to every tool call it made so far, and folds it again.
 */
public final class TurnView implements AgentEventSink {
    static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
    static final AttributedStyle GREEN = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
    static final AttributedStyle RED = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
    static final AttributedStyle YELLOW = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
    private static final String SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
    private static final int OUTPUT_LINES = 4;
    /** How much of the reasoning, at most, the live region shows while it streams. */
    private static final int THINKING_ROWS = 3;

    private final ReplScreen screen;
    private final MarkdownLines markdown;
    private final Map<String, Running> running = new LinkedHashMap<>();
    /** The running sub-agents' ids, each with the id of the main agent's call it runs for. */
    private final Map<String, String> agentCalls = new LinkedHashMap<>();
    /** What each sub-agent did so far, by the id of the main agent's call it runs for, until that call ends. */
    private final Map<String, AgentWork> agentWork = new LinkedHashMap<>();
    /** Whether sub-agents show every tool call they made (Ctrl-O), or only the one they run now. */
    private boolean agentsExpanded;

    private final StringBuilder partial = new StringBuilder();
    /** The reasoning of the reply streaming now; empty when there is none or it has ended. */
    private final StringBuilder thinking = new StringBuilder();
    /** In full view, the reasoning's line still streaming. */
    private final StringBuilder thinkingPartial = new StringBuilder();

    private boolean thinkingInFull;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-spinner");
        thread.setDaemon(true);
        return thread;
    });
    private ScheduledFuture<?> ticking;
    private boolean waiting;
    private boolean paused;
    private int frame;

    /** A call on screen while it runs. */
    private static final class Running {
        final String label;
        final Deque<String> lastLines = new ArrayDeque<>();
        /** The tool's last progress report ("3/5 indexing"), or "". */
        String progress = "";

        Running(String label) {
            this.label = label;
        }
    }

    /** A sub-agent's tool calls: the finished ones' lines, and those running now. */
    private static final class AgentWork {
        final List<AttributedString> finished = new ArrayList<>();
        final Map<String, String> running = new LinkedHashMap<>();
        /** The tool it started last, shown on its folded line. */
        String current = "";
    }

    /** The most rows of a sub-agent's calls the live region shows expanded; the rest are counted. */
    static final int AGENT_ROWS = 8;

    TurnView(ReplScreen screen) {
        this.screen = screen;
        this.markdown = new MarkdownLines(screen.color());
    }

    /** A turn starts: a spinner until the first words of the answer. */
    synchronized void start() {
        waiting = true;
        paused = false;
        if (screen.ansi() && ticking == null) {
            ticking = ticker.scheduleAtFixedRate(this::tick, 100, 100, TimeUnit.MILLISECONDS);
        }
        redraw();
    }

    /** Whether reasoning is printed in full from now on, rather than folded into one line; returns the new state. */
    synchronized boolean toggleThinking() {
        thinkingInFull = !thinkingInFull;
        return thinkingInFull;
    }

    /** Ctrl-O: whether sub-agents show every tool call they made from now on; returns the new state. */
    synchronized boolean toggleAgents() {
        agentsExpanded = !agentsExpanded;
        redraw();
        return agentsExpanded;
    }

    /** The turn is over: whatever is still streaming is printed, the live region goes. */
    synchronized void stop() {
        endThinking(-1);
        flushPartial();
        running.clear();
        agentCalls.clear();
        agentWork.clear();
        waiting = false;
        if (ticking != null) {
            ticking.cancel(false);
            ticking = null;
        }
        screen.clearLive();
    }

    /** Stops the spinner's thread for good. */
    void close() {
        ticker.shutdownNow();
    }

    /** Hides the live region while the user is asked something. */
    synchronized void pause() {
        flushPartial();
        paused = true;
        screen.clearLive();
    }

    synchronized void resume() {
        paused = false;
        redraw();
    }

    @Override
    public synchronized void accept(AgentEvent event) {
        if (subAgent(event)) {
            redraw();
            return;
        }
        // An MCP server's news may come from its own thread at any time: it must not end the reasoning shown.
        if (event instanceof AgentEvent.McpServerStatus server) {
            mcpServer(server);
            return;
        }
        if (event instanceof AgentEvent.ToolProgress progress) {
            Running call = running.get(progress.callId());
            if (call != null) {
                call.progress = Rendering.printable(progressText(progress));
                redraw();
            }
            return;
        }
        if (event instanceof AgentEvent.ReasoningDelta delta) {
            waiting = false;
            reasoning(delta.text());
            redraw();
            return;
        }
        // Anything else ends the reasoning; the reply's usage, when it comes first, has the count.
        endThinking(
                event instanceof AgentEvent.Usage usage && usage.source() == AgentEvent.Usage.Source.PROVIDER
                        ? usage.usage().reasoningTokens()
                        : -1);
        if (event instanceof AgentEvent.TextDelta delta) {
            waiting = false;
            text(delta.text());
            return;
        }
        if (event instanceof AgentEvent.RequestStarted) {
            waiting = true;
        } else if (event instanceof AgentEvent.ToolCallUpdated updated) {
            flushPartial();
            if (updated.status() == ToolCallStatus.EXECUTING) {
                waiting = false;
                running.put(
                        updated.call().id(), new Running(label(updated.call().name(), updated.summary())));
            }
        } else if (event instanceof AgentEvent.ToolOutput output) {
            Running call = running.get(output.callId());
            if (call != null) {
                call.lastLines.addLast(Rendering.printable(output.line()));
                if (call.lastLines.size() > OUTPUT_LINES) {
                    call.lastLines.removeFirst();
                }
            }
        } else if (event instanceof AgentEvent.ToolCallFinished finished) {
            flushPartial();
            running.remove(finished.call().id());
            List<AttributedString> lines = new ArrayList<>(finishedLines(finished));
            AgentWork work = agentWork.remove(finished.call().id());
            if (work != null && agentsExpanded) {
                // Expanded, a sub-agent's calls stay on screen under its call's line.
                work.finished.forEach(line -> lines.add(indented(line)));
            }
            commit(lines);
        } else {
            notice(event);
        }
        redraw();
    }

    /**
     * A sub-agent shows as its {@code agent} call's line (the agent and its task) with the tool it runs now, or, expanded,
     * with each tool call it made; its text and the rest of its work stay off the screen: its answer is the call's
     * result.
     */
    private boolean subAgent(AgentEvent event) {
        if (event instanceof AgentEvent.SubAgentStarted started) {
            agentCalls.put(started.agentId(), started.callId());
            agentWork.put(started.callId(), new AgentWork());
            return true;
        }
        if (event instanceof AgentEvent.SubAgentFinished finished) {
            agentCalls.remove(finished.run().id());
            return true;
        }
        if (!(event instanceof AgentEvent.SubAgentEvent nested)) {
            return false;
        }
        AgentWork work = agentWork.get(agentCalls.get(nested.agentId()));
        if (work == null) {
            return true;
        }
        if (nested.event() instanceof AgentEvent.ToolCallUpdated updated
                && updated.status() == ToolCallStatus.EXECUTING) {
            work.current = label(updated.call().name(), updated.summary());
            work.running.put(updated.call().id(), work.current);
        } else if (nested.event() instanceof AgentEvent.ToolCallFinished finished) {
            work.running.remove(finished.call().id());
            work.finished.add(markedLine(finished));
        }
        return true;
    }

    /** A running sub-agent's rows under its call's line, expanded: its last calls, the earlier ones counted. */
    private List<AttributedString> agentRows(AgentWork work, String spin) {
        List<AttributedString> rows = new ArrayList<>(work.finished);
        work.running.values().forEach(label -> rows.add(new AttributedString(spin + " " + label)));
        List<AttributedString> shown = new ArrayList<>();
        int hidden = Math.max(0, rows.size() - AGENT_ROWS);
        if (hidden > 0) {
            shown.add(new AttributedString("    … " + hidden + " earlier tool call" + (hidden == 1 ? "" : "s"), DIM));
        }
        rows.subList(hidden, rows.size()).forEach(row -> shown.add(indented(row)));
        return shown;
    }

    private static AttributedString indented(AttributedString line) {
        return new AttributedStringBuilder().append("    ").append(line).toAttributedString();
    }

    /** A server that failed or came back says so; one that connects or changes its tools is quiet (/mcp shows it). */
    private void mcpServer(AgentEvent.McpServerStatus server) {
        if (server.state().equals("failed")) {
            commit(new AttributedString(
                    "⚠ the MCP server '" + server.server() + "' "
                            + (server.error() == null
                                    ? "failed"
                                    : server.error().lines().findFirst().orElse("")),
                    YELLOW));
            redraw();
        } else if (server.state().equals("restarted")) {
            commit(new AttributedString(
                    "↻ the MCP server '" + server.server() + "' crashed and was started again", YELLOW));
            redraw();
        }
    }

    /** "3/5 indexing", "40%", "3": the progress as the tool gave it. */
    static String progressText(AgentEvent.ToolProgress progress) {
        String done = progress.total() == null
                ? number(progress.progress())
                : number(progress.progress()) + "/" + number(progress.total());
        return progress.message() == null || progress.message().isBlank() ? done : done + " " + progress.message();
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /** A message of several lines as one: printable() drops line ends, which would run words together. */
    private static String oneLine(String message) {
        return message.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }

    /** Events that become one line of their own, or none. */
    private void notice(AgentEvent event) {
        if (event instanceof AgentEvent.Retrying retrying) {
            flushPartial();
            commit(new AttributedString(
                    "↻ " + Rendering.printable(retrying.reason()) + "; retrying in "
                            + Rendering.duration(retrying.delay()) + " (attempt " + (retrying.attempt() + 1) + " of "
                            + retrying.maxAttempts() + ")",
                    YELLOW));
        } else if (event instanceof AgentEvent.ReplyFailed failed) {
            flushPartial();
            commit(new AttributedString("✗ the reply failed: " + Rendering.printable(failed.error()), RED));
        } else if (event instanceof AgentEvent.ReplyCutShort cut) {
            flushPartial();
            commit(new AttributedString(
                    cut.reason() == FinishReason.CONTENT_FILTER
                            ? "⚠ the provider's content filter stopped the reply."
                            : "⚠ the reply reached the output token limit and was cut off.",
                    YELLOW));
        } else if (event instanceof AgentEvent.LoopDetected loop) {
            flushPartial();
            commit(new AttributedString("⚠ " + Rendering.printable(loop.message()), YELLOW));
        } else if (event instanceof AgentEvent.Compressed compressed) {
            flushPartial();
            commit(new AttributedString(compressedLine(compressed), DIM));
        } else if (event instanceof AgentEvent.CompressionFailed failed) {
            commit(new AttributedString(
                    "⚠ the conversation could not be compressed: " + Rendering.printable(failed.error()), YELLOW));
        } else if (event instanceof AgentEvent.Warning warning) {
            // A warning can quote what the model or a command chose (a path a command made): shown, never obeyed.
            commit(new AttributedString("⚠ " + Rendering.printable(oneLine(warning.message())), YELLOW));
        }
    }

    private void reasoning(String delta) {
        thinking.append(delta);
        if (!thinkingInFull) {
            return;
        }
        thinkingPartial.append(delta);
        List<AttributedString> finished = new ArrayList<>();
        int newline;
        while ((newline = thinkingPartial.indexOf("\n")) >= 0) {
            String line = thinkingPartial.substring(0, newline);
            thinkingPartial.delete(0, newline + 1);
            finished.addAll(dimRows(line, screen.width()));
        }
        if (!finished.isEmpty()) {
            commit(finished);
        }
    }

    /**
     * The reasoning has ended: in full view its last line is printed; folded, one line says how long it was, by the
     * provider's count when {@code reportedTokens} is above 0, else estimated.
     */
    private void endThinking(long reportedTokens) {
        if (thinking.length() == 0) {
            return;
        }
        if (thinkingInFull) {
            if (thinkingPartial.length() > 0) {
                commit(dimRows(thinkingPartial.toString(), screen.width()));
            }
        } else {
            commit(new AttributedString(thinkingLine(thinking.toString(), reportedTokens), DIM));
        }
        thinking.setLength(0);
        thinkingPartial.setLength(0);
    }

    /** {@code thinking… (N tokens)}, or {@code (~N tokens)} when estimated from the text. */
    static String thinkingLine(String reasoning, long reportedTokens) {
        return reportedTokens > 0
                ? "thinking… (" + reportedTokens + " tokens)"
                : "thinking… (~" + TokenEstimator.text(reasoning) + " tokens)";
    }

    private static List<AttributedString> dimRows(String line, int width) {
        return MarkdownLines.Wrap.words(new AttributedString(Rendering.printable(line), DIM), width, "");
    }

    /** The last rows of the reasoning streaming now, for the live region. */
    private List<AttributedString> thinkingTail() {
        String text = thinkingInFull ? thinkingPartial.toString() : thinking.toString();
        // Only the end is shown, so only the end is wrapped: reasoning can run to many thousands of characters.
        String tail = Utf16.tail(text, 1000);
        List<AttributedString> rows = new ArrayList<>();
        tail.lines().filter(line -> !line.isBlank()).forEach(line -> rows.addAll(dimRows(line, screen.width() - 1)));
        int limit = thinkingInFull ? 1 : THINKING_ROWS;
        return rows.subList(Math.max(0, rows.size() - limit), rows.size());
    }

    static String compressedLine(AgentEvent.Compressed compressed) {
        return "↯ compressed " + compressed.summarisedMessages() + " older messages into a summary: ~"
                + compressed.tokensBefore() + " → ~" + compressed.tokensAfter() + " tokens";
    }

    private void text(String delta) {
        partial.append(delta);
        List<AttributedString> finished = new ArrayList<>();
        int newline;
        while ((newline = partial.indexOf("\n")) >= 0) {
            String line = partial.substring(0, newline);
            partial.delete(0, newline + 1);
            finished.addAll(markdown.render(Rendering.printable(line), screen.width()));
        }
        // One write for every finished line, with the live region holding only the unfinished one.
        if (finished.isEmpty()) {
            redraw();
        } else {
            commit(finished);
        }
    }

    /** Ends an answer's last line when something else comes between it and the next words. */
    private void flushPartial() {
        if (partial.length() > 0) {
            String line = partial.toString();
            partial.setLength(0);
            commit(markdown.render(Rendering.printable(line), screen.width()));
        }
    }

    private void tick() {
        synchronized (this) {
            frame = (frame + 1) % SPINNER.length();
            redraw();
        }
    }

    /** Prints finished lines with the live region as it is now, in one write, so nothing stale flashes. */
    private void commit(List<AttributedString> lines) {
        screen.print(lines, paused ? List.of() : liveLines());
    }

    private void commit(AttributedString line) {
        commit(List.of(line));
    }

    private void redraw() {
        if (!paused) {
            screen.live(liveLines());
        }
    }

    private List<AttributedString> liveLines() {
        List<AttributedString> lines = new ArrayList<>();
        if (partial.length() > 0) {
            for (AttributedString row : MarkdownLines.Wrap.words(
                    new AttributedString(Rendering.printable(partial.toString())), screen.width() - 1, "")) {
                lines.add(row);
            }
        }
        String spin = String.valueOf(SPINNER.charAt(frame));
        if (thinking.length() > 0) {
            if (!thinkingInFull) {
                lines.add(new AttributedString(spin + " thinking… (/thinking to show it in full)", DIM));
            }
            lines.addAll(thinkingTail());
        }
        for (Map.Entry<String, Running> entry : running.entrySet()) {
            Running call = entry.getValue();
            AgentWork work = agentWork.get(entry.getKey());
            lines.add(new AttributedStringBuilder()
                    .style(AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN))
                    .append(spin)
                    .style(AttributedStyle.DEFAULT)
                    .append(" " + call.label)
                    .style(DIM)
                    .append(call.progress.isEmpty() ? "" : "  " + call.progress)
                    .append(work == null ? "" : agentNote(work))
                    .toAttributedString());
            if (work != null && agentsExpanded) {
                lines.addAll(agentRows(work, spin));
            }
            for (String output : call.lastLines) {
                lines.add(new AttributedString("    " + output, DIM));
            }
        }
        if (waiting && running.isEmpty() && partial.length() == 0 && thinking.length() == 0) {
            lines.add(new AttributedString(spin + " thinking… (Ctrl-C to cancel)", DIM));
        }
        return lines;
    }

    /** After a sub-agent's call label: folded, the tool it runs now; then the key that expands or folds it. */
    private String agentNote(AgentWork work) {
        if (agentsExpanded) {
            return "  (Ctrl-O to fold)";
        }
        return (work.current.isEmpty() ? "" : "  ↳ " + work.current) + "  (Ctrl-O to expand)";
    }

    private static String label(String tool, String summary) {
        return summary.isEmpty() ? tool : tool + " " + Rendering.printable(Rendering.shorten(summary));
    }

    /** ✓ tool summary · outcome (duration), and the rest of a many-line display (a plan) under it. */
    private List<AttributedString> finishedLines(AgentEvent.ToolCallFinished finished) {
        AttributedString marked = markedLine(finished);
        List<AttributedString> lines = new ArrayList<>(MarkdownLines.Wrap.words(marked, screen.width(), "  "));
        finished.result()
                .display()
                .lines()
                .skip(1)
                .forEach(extra -> lines.add(new AttributedString("    " + Rendering.printable(extra), DIM)));
        return lines;
    }

    /** ✓ tool summary · outcome (duration), its mark coloured, on one line. */
    private static AttributedString markedLine(AgentEvent.ToolCallFinished finished) {
        AttributedStyle markStyle =
                switch (finished.status()) {
                    case SUCCESS -> GREEN;
                    case CANCELLED -> YELLOW;
                    case ERROR, VALIDATING, AWAITING_APPROVAL, SCHEDULED, EXECUTING -> RED;
                };
        String line = Rendering.printable(SingleShotRenderer.toolLine(finished));
        return new AttributedStringBuilder()
                .style(markStyle)
                .append(line.substring(0, 1))
                .style(AttributedStyle.DEFAULT)
                .append(line.substring(1))
                .style(DIM)
                .append(SingleShotRenderer.redactedNote(finished))
                .toAttributedString();
    }
}
