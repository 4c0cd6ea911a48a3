package dev.dockhand.cli.session;

import dev.dockhand.cli.config.Pricing;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.model.TokenUsage;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * Adds up what a run's requests cost, each at the price of the model it went to (the REPL can switch models). When
 * some request went to a model without a price, the total is unknown: a partial sum would read as the whole. The
 * sub-agents' requests count too, so {@code --max-cost} bounds their work.
 */
public final class CostMeter implements AgentEventSink {
    private final Supplier<Pricing> pricing;
    private final Supplier<String> model;
    private final Map<String, String> agentModels = new HashMap<>();
    private double dollars;
    private boolean unpriced;

    /**
     * @param pricing the prices as they stand now (in the REPL, trusting the folder can bring its own)
     * @param model the model requests go to now
     */
    public CostMeter(Supplier<Pricing> pricing, Supplier<String> model) {
        this.pricing = pricing;
        this.model = model;
    }

    @Override
    public synchronized void accept(AgentEvent event) {
        if (event instanceof AgentEvent.SubAgentStarted started) {
            agentModels.put(started.agentId(), started.model());
        } else if (event instanceof AgentEvent.SubAgentEvent nested
                && nested.event() instanceof AgentEvent.Usage used) {
            // A sub-agent's requests are the run's too, at the price of the model it talks to.
            add(costOf(used.usage(), agentModels.getOrDefault(nested.agentId(), model.get())));
        } else if (event instanceof AgentEvent.Usage used) {
            add(costOf(used.usage()));
        }
    }

    private void add(OptionalDouble cost) {
        if (cost.isPresent()) {
            dollars += cost.getAsDouble();
        } else {
            unpriced = true;
        }
    }

    /** The model sub-agent {@code agentId} talks to, once it started. */
    public synchronized String modelOf(String agentId) {
        return agentModels.getOrDefault(agentId, model.get());
    }

    /** What {@code usage} costs at the current model's price, when it has one. */
    public OptionalDouble costOf(TokenUsage usage) {
        return costOf(usage, model.get());
    }

    /** What {@code usage} costs at {@code modelName}'s price, when it has one. */
    public OptionalDouble costOf(TokenUsage usage, String modelName) {
        return pricing.get()
                .find(modelName)
                .map(price -> OptionalDouble.of(price.cost(usage)))
                .orElse(OptionalDouble.empty());
    }

    /** The total so far; empty when some request's model has no price. */
    public synchronized OptionalDouble total() {
        return unpriced ? OptionalDouble.empty() : OptionalDouble.of(dollars);
    }
}
