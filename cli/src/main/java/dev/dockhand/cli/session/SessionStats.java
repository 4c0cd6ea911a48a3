package dev.dockhand.cli.session;

import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.redaction.Redactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What {@code /stats} reports for the REPL session: model requests, tokens in (and how many of them the provider's
 * cache served or took) and out (and how many of them were reasoning), marked when estimated, the cost when every
 * model used has a price, tool calls by tool, and the time spent waiting for the model against the time tools ran.
 * Also keeps how full the context is, for the status line.
 */
public final class SessionStats implements AgentEventSink {
    private final LongSupplier clock;
    private final CostMeter cost;
    private final Map<String, Integer> callsByTool = new TreeMap<>();
    private int requests;
    private int redacted;
    private TokenUsage tokens = TokenUsage.ZERO;
    private boolean estimated;
    private long modelNanos;
    private long toolNanos;
    private long requestStarted = -1;
    private long contextTokens = -1;
    private long contextWindow = -1;

    /**
     * @param clock nanoseconds, {@code System::nanoTime} outside tests
     * @param cost the session's cost meter, fed the same events
     */
    public SessionStats(LongSupplier clock, CostMeter cost) {
        this.clock = clock;
        this.cost = cost;
    }

    @Override
    public synchronized void accept(AgentEvent event) {
        if (event instanceof AgentEvent.RequestStarted) {
            requests++;
            requestStarted = clock.getAsLong();
        } else if (event instanceof AgentEvent.Usage usage) {
            tokens = tokens.plus(usage.usage());
            estimated |= usage.source() == AgentEvent.Usage.Source.ESTIMATED;
            endRequest();
        } else if (event instanceof AgentEvent.ReplyFailed || event instanceof AgentEvent.TurnCompleted) {
            endRequest();
        } else if (event instanceof AgentEvent.ToolCallFinished finished) {
            callsByTool.merge(finished.call().name(), 1, Integer::sum);
            redacted += Redactor.count(finished.result().llmContent());
            toolNanos += finished.duration().toNanos();
        } else if (event instanceof AgentEvent.ContextUsed context) {
            contextTokens = context.tokens();
            contextWindow = context.window();
        } else if (event instanceof AgentEvent.Compressed compressed) {
            contextTokens = compressed.tokensAfter();
        }
    }

    private void endRequest() {
        if (requestStarted >= 0) {
            modelNanos += clock.getAsLong() - requestStarted;
            requestStarted = -1;
        }
    }

    /** How full the context is, as a whole percentage, when a reply has told. */
    public synchronized String contextPercent() {
        if (contextTokens < 0 || contextWindow <= 0) {
            return "";
        }
        return Math.min(100, Math.round(100.0 * contextTokens / contextWindow)) + "%";
    }

    /** A new conversation starts with an empty context; the session's totals stay. */
    public synchronized void newConversation() {
        contextTokens = -1;
    }

    /** The report's lines. */
    public synchronized List<String> report() {
        List<String> lines = new ArrayList<>();
        lines.add("Model requests   " + requests);
        List<String> cache = new ArrayList<>();
        if (tokens.cachedInputTokens() > 0) {
            cache.add(tokens.cachedInputTokens() + " read from the cache");
        }
        if (tokens.cacheWriteTokens() > 0) {
            cache.add(tokens.cacheWriteTokens() + " written to it");
        }
        lines.add("Tokens in        " + tokens.inputTokens()
                + (cache.isEmpty() ? "" : " (" + String.join(", ", cache) + ")"));
        lines.add("Tokens out       " + tokens.outputTokens()
                + (tokens.reasoningTokens() > 0 ? " (" + tokens.reasoningTokens() + " reasoning)" : ""));
        if (estimated) {
            lines.add("                 estimated: the provider reported no usage for some requests");
        }
        OptionalDouble total = cost.total();
        lines.add("Cost             "
                + (total.isPresent()
                        ? Pricing.dollars(total.getAsDouble())
                        : "not known: a model of this session has no price (set one under pricing in the settings)"));
        lines.add("Time in model    " + Rendering.duration(Duration.ofNanos(modelNanos)));
        lines.add("Time in tools    " + Rendering.duration(Duration.ofNanos(toolNanos)));
        int calls = callsByTool.values().stream().mapToInt(Integer::intValue).sum();
        lines.add("Tool calls       " + calls);
        callsByTool.forEach(
                (tool, count) -> lines.add("  " + tool + " ".repeat(Math.max(1, 20 - tool.length())) + count));
        if (redacted > 0) {
            lines.add("Secrets redacted " + redacted + " (in tool results, before the model read them)");
        }
        String percent = contextPercent();
        if (!percent.isEmpty()) {
            lines.add("Context          ~" + contextTokens + " of " + contextWindow + " tokens (" + percent + ")");
        }
        return lines;
    }
}
