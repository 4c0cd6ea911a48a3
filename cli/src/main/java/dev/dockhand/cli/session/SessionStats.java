package dev.dockhand.cli.session;

import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.redaction.Redactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What {@code /stats} reports for the REPL session: model requests, tokens in (and how many of them the provider's
 * cache served or took) and out (and how many of them were reasoning), marked when estimated, the cost when every
 * model used has a price, tool calls by tool, and the time spent waiting for the model against the time tools ran.
 * Tokens, cost and tool calls include the sub-agents', and once one ran, tokens and cost are split by agent (each
 * sub-agent under its definition's name). Also keeps how full the context is, for the status line.
 */
public final class SessionStats implements AgentEventSink {
    /** The main agent's name in the split by agent. */
    static final String MAIN = "main";

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
    /** The sub-agents' definition names by id, and the tokens and cost of each agent, {@code main} first. */
    private final Map<String, String> agentNames = new HashMap<>();

    private final Map<String, AgentShare> byAgent = new LinkedHashMap<>();

    /** One agent's tokens, and its cost while every one of its requests had a price. */
    private static final class AgentShare {
        TokenUsage tokens = TokenUsage.ZERO;
        double dollars;
        boolean unpriced;

        void add(TokenUsage usage, OptionalDouble cost) {
            tokens = tokens.plus(usage);
            if (cost.isPresent()) {
                dollars += cost.getAsDouble();
            } else {
                unpriced = true;
            }
        }
    }

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
        if (event instanceof AgentEvent.SubAgentStarted started) {
            agentNames.put(started.agentId(), started.agent());
            return;
        }
        if (event instanceof AgentEvent.SubAgentEvent nested) {
            // The session's tokens and calls are its sub-agents' too; its requests and times are the main agent's.
            if (nested.event() instanceof AgentEvent.Usage usage) {
                tokens = tokens.plus(usage.usage());
                estimated |= usage.source() == AgentEvent.Usage.Source.ESTIMATED;
                byAgent.computeIfAbsent(
                                agentNames.getOrDefault(nested.agentId(), nested.agentId()), name -> new AgentShare())
                        .add(usage.usage(), cost.costOf(usage.usage(), cost.modelOf(nested.agentId())));
            } else if (nested.event() instanceof AgentEvent.ToolCallFinished finished) {
                callsByTool.merge(finished.call().name(), 1, Integer::sum);
            }
            return;
        }
        if (event instanceof AgentEvent.Usage usage) {
            byAgent.computeIfAbsent(MAIN, name -> new AgentShare()).add(usage.usage(), cost.costOf(usage.usage()));
        }
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
        if (byAgent.keySet().stream().anyMatch(name -> !name.equals(MAIN))) {
            String label = "By agent         ";
            for (Map.Entry<String, AgentShare> share : byAgent.entrySet()) {
                AgentShare agent = share.getValue();
                lines.add(label + share.getKey() + ": " + agent.tokens.inputTokens() + " in, "
                        + agent.tokens.outputTokens() + " out, "
                        + (agent.unpriced ? "cost not known" : Pricing.dollars(agent.dollars)));
                label = " ".repeat(label.length());
            }
        }
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
