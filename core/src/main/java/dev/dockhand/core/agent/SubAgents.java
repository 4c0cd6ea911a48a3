package dev.dockhand.core.agent;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.scheduler.ApprovalDecision;
import dev.dockhand.core.scheduler.Approver;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.session.Transcript;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agents of a session and what runs them: each {@code agent} call becomes a child {@link AgentLoop} with a fresh
 * conversation (the agent's instructions, then the task as its first message), the agent's own tools (the main
 * agent's, narrowed, never {@code agent}: sub-agents start no sub-agents) and turn limit, in the same workspace and
 * sandbox, through the same provider client, approval mode, session approvals and approver (asked one question at a
 * time, naming the agent), and under the same cancellation, turn limit and spending limit as the main agent.
 */
public final class SubAgents {
    /** The name of the tool that starts sub-agents. */
    public static final String TOOL_NAME = "agent";

    private final Map<String, AgentDefinition> definitions = new LinkedHashMap<>();
    private final AtomicInteger started = new AtomicInteger();
    /** Approvers expect one question at a time; sub-agents running side by side could ask at once. */
    private final Object asking = new Object();

    private volatile Binding binding;
    /** Why the session's provider cannot serve a model now, or empty; the session's provider may change (/model). */
    private volatile Function<String, Optional<String>> modelCheck = model -> Optional.empty();

    /**
     * What a session gives its sub-agents, once its tools, scheduler and loop exist.
     *
     * @param registry the main agent's tools, which the agents' lists narrow
     * @param scheduler the main agent's scheduler, whose mode, rules and session approvals they share
     * @param loop the main agent's loop as it is now (the REPL replaces it on {@code /clear} and {@code /resume})
     * @param approver who answers approval questions
     * @param events where the sub-agents' events go, tagged with their ids
     * @param transcripts where {@code full} policy conversations are kept
     * @param workspace the workspace root, named in the agents' instructions
     */
    public record Binding(
            ToolRegistry registry,
            CoreToolScheduler scheduler,
            Supplier<AgentLoop> loop,
            Approver approver,
            AgentEventSink events,
            SubAgentTranscripts transcripts,
            Path workspace) {}

    /** @param definitions the agents, a later one replacing an earlier one of the same name */
    public SubAgents(List<AgentDefinition> definitions) {
        for (AgentDefinition definition : definitions) {
            this.definitions.remove(definition.name());
            this.definitions.put(definition.name(), definition);
        }
    }

    public List<AgentDefinition> definitions() {
        return List.copyOf(definitions.values());
    }

    public Optional<AgentDefinition> find(String name) {
        return Optional.ofNullable(definitions.get(name));
    }

    /** The {@code agent} tool over these agents, for the main agent's registry. */
    public AgentTool tool() {
        return new AgentTool(this);
    }

    public void bind(Binding binding) {
        this.binding = Objects.requireNonNull(binding, "binding");
    }

    /**
     * How to tell a model the session's provider cannot serve: {@code check} gives the reason, as a clause, or empty.
     * An agent naming such a model works with the main agent's instead, and says so.
     */
    public void checkModels(Function<String, Optional<String>> check) {
        this.modelCheck = Objects.requireNonNull(check, "check");
    }

    /** What is said of an agent whose model the session's provider cannot serve, {@code reason} being a clause. */
    public static String modelNotServed(String agent, String model, String reason) {
        return "the agent " + agent + " uses the session's model, not " + model + ": " + reason + ".";
    }

    private Binding bound() {
        Binding current = binding;
        if (current == null) {
            throw new IllegalStateException("the sub-agents were not bound to a session");
        }
        return current;
    }

    /**
     * The main agent's tools that {@code definition} allows (all of them when it lists none), never {@code agent}; the
     * MCP tools among them as they are now and as they join later, like the main agent's.
     */
    public ToolRegistry toolsOf(AgentDefinition definition) {
        ToolRegistry main = bound().registry();
        Map<String, String> withheld = new LinkedHashMap<>();
        withheld.put(TOOL_NAME, "sub-agents cannot start sub-agents");
        for (Tool<?> tool : main.tools()) {
            if (!tool.name().equals(TOOL_NAME) && !definition.allows(tool.name())) {
                withheld.put(tool.name(), "the " + definition.name() + " agent's definition does not list it");
            }
        }
        return main.narrowed(name -> !name.equals(TOOL_NAME) && definition.allows(name), withheld);
    }

    /**
     * Whether the agent only reads: every tool it has is read-only and safe beside others. Such agents run side by
     * side when the main agent starts several in one round; others run one at a time.
     */
    public boolean readOnly(AgentDefinition definition) {
        if (binding == null) {
            return false;
        }
        return toolsOf(definition).tools().stream()
                .allMatch(tool -> tool.kind() == ToolKind.READ && tool.concurrencySafe());
    }

    /** Runs {@code definition} on {@code prompt} to its end, under the main agent's turn cancellation. */
    SubAgentRun run(AgentDefinition definition, String description, String prompt, String callId, Cancellation cancel) {
        Binding session = bound();
        String id = definition.name() + "-" + started.incrementAndGet();
        AgentLoop parent = session.loop().get();
        String model = parent.model();
        if (definition.model().isPresent()) {
            Optional<String> refused = modelCheck.apply(definition.model().get());
            if (refused.isEmpty()) {
                model = definition.model().get();
            } else {
                session.events()
                        .accept(new AgentEvent.Warning(modelNotServed(
                                definition.name(), definition.model().get(), refused.get())));
            }
        }
        Counter counter = new Counter();
        Optional<Transcript> transcript = definition.dataPolicy() == DataPolicy.FULL
                ? session.transcripts().open(id, model)
                : Optional.empty();
        AgentEventSink events = event -> {
            counter.accept(event);
            if (event instanceof AgentEvent.Usage usage) {
                transcript.ifPresent(file -> file.recordUsage(usage.usage()));
            }
            session.events().accept(new AgentEvent.SubAgentEvent(id, event));
        };
        String label = id + " (" + description + ")";
        Approver approver = request -> {
            synchronized (asking) {
                if (cancel.isCancelled()) {
                    return ApprovalDecision.cancelTurn();
                }
                return session.approver().decide(request.askedBy(label));
            }
        };
        ToolRegistry tools = toolsOf(definition);
        CoreToolScheduler scheduler = session.scheduler().forSubAgent(tools, approver, events);
        Conversation conversation = new Conversation(instructions(definition, session.workspace()));
        transcript.ifPresent(file -> conversation.observe(file::record));
        AgentLoop loop =
                parent.child(model, tools::declarations, scheduler, conversation, definition.maxTurns(), events);
        session.events().accept(new AgentEvent.SubAgentStarted(id, callId, definition.name(), description, model));
        String outcome;
        String answer = "";
        int requests;
        try {
            TurnResult result = loop.run(prompt, cancel);
            outcome = result.outcome().name().toLowerCase(Locale.ROOT);
            answer = result.answer();
            requests = result.requests();
        } catch (ProviderException e) {
            outcome = "provider_failed";
            answer = e.getMessage();
            requests = counter.requests();
        } finally {
            transcript.ifPresent(Transcript::close);
        }
        SubAgentRun run = new SubAgentRun(
                id,
                callId,
                definition.name(),
                description,
                model,
                definition.dataPolicy(),
                outcome,
                answer,
                requests,
                counter.toolCalls(),
                counter.usage(),
                summary(id, definition.name(), requests, counter.byTool()),
                transcript.map(file -> link(file.file())));
        session.events().accept(new AgentEvent.SubAgentFinished(run));
        return run;
    }

    /** A sub-agent's transcript as the session's transcript links it: relative to the session's folder. */
    private static String link(Path file) {
        Path folder = file.getParent();
        return folder == null || folder.getFileName() == null
                ? file.getFileName().toString()
                : folder.getFileName() + "/" + file.getFileName();
    }

    private static String instructions(AgentDefinition definition, Path workspace) {
        return definition.systemPrompt() + "\n\nWorkspace: " + workspace
                + " (relative paths are relative to it; tools cannot reach outside it). Today is " + LocalDate.now()
                + ".";
    }

    /** The one line that tells the main agent what a sub-agent did. */
    static String summary(String id, String agent, int requests, Map<String, Integer> byTool) {
        int calls = byTool.values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder line = new StringBuilder("Sub-agent " + id + " (" + agent + ") made ")
                .append(plural(requests, "model request"))
                .append(" and ")
                .append(plural(calls, "tool call"));
        if (!byTool.isEmpty()) {
            List<String> parts = new ArrayList<>();
            byTool.forEach((tool, count) -> parts.add(tool + " " + count));
            line.append(" (").append(String.join(", ", parts)).append(')');
        }
        return line.append('.').toString();
    }

    private static String plural(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }

    /** What a sub-agent did, counted from its events. */
    static final class Counter implements AgentEventSink {
        private final Map<String, Integer> byTool = new TreeMap<>();
        private TokenUsage usage = TokenUsage.ZERO;
        private int requests;

        @Override
        public synchronized void accept(AgentEvent event) {
            if (event instanceof AgentEvent.ToolCallFinished finished) {
                byTool.merge(finished.call().name(), 1, Integer::sum);
            } else if (event instanceof AgentEvent.Usage used) {
                usage = usage.plus(used.usage());
            } else if (event instanceof AgentEvent.RequestStarted) {
                requests++;
            }
        }

        synchronized int toolCalls() {
            return byTool.values().stream().mapToInt(Integer::intValue).sum();
        }

        synchronized Map<String, Integer> byTool() {
            return new TreeMap<>(byTool);
        }

        synchronized TokenUsage usage() {
            return usage;
        }

        synchronized int requests() {
            return requests;
        }
    }
}
