package dev.dockhand.core.agent;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.FinishReason;
import dev.dockhand.core.model.ModelClient;
import dev.dockhand.core.model.ModelReply;
import dev.dockhand.core.model.ModelRequest;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.model.ReasoningEffort;
import dev.dockhand.core.model.TokenEstimator;
import dev.dockhand.core.model.TokenUsage;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.scheduler.CompletedCall;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.scheduler.ToolCallStatus;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * Drives one turn: the user's prompt, then model requests and tool rounds until the model answers without tool
 * calls. Contract: the conversation is valid for the real APIs after every step, whatever happens. A reply with
 * tool calls is appended as ONE assistant message, then exactly one result per call in the calls' order; a reply cut
 * short by a cancel or a provider failure keeps the text that arrived and drops its unfinished tool calls; tool calls
 * cut off by the output limit are answered without being run.
 */
public final class AgentLoop {
    private volatile ModelClient client;
    private final CoreToolScheduler scheduler;
    private final Conversation conversation;
    private final Supplier<List<ToolDeclaration>> tools;
    /** The declarations last sent and their size in tokens, counted again only when the list changes (MCP). */
    private List<ToolDeclaration> declared;

    private long toolTokens;

    private final AgentEventSink events;
    private final int maxRequests;
    private volatile String model;
    private final LoopGuard loopGuard = new LoopGuard();

    /** The result of a call whose round failed inside Dockhand before it was answered. */
    static final String UNANSWERED = "Not run to the end: Dockhand failed inside before this call was answered."
            + " Check the workspace before relying on what it did.";

    private volatile ContextPolicy contextPolicy = ContextPolicy.DEFAULT;
    private volatile Optional<ReasoningEffort> reasoningEffort = Optional.empty();
    private volatile BooleanSupplier budgetSpent = () -> false;
    private volatile TurnHooks hooks = TurnHooks.NONE;
    /** The requests of the turn, this loop's and its sub-agents'; a sub-agent's loop shares its parent's. */
    private final TurnRequests turnRequests;
    /** The input tokens of the last request as reported (or estimated), and how many messages it held. */
    private long knownTokens;

    private int knownMessages;

    public AgentLoop(
            ModelClient client,
            String model,
            List<ToolDeclaration> tools,
            CoreToolScheduler scheduler,
            Conversation conversation,
            int maxRequests,
            AgentEventSink events) {
        this(client, model, fixed(List.copyOf(tools)), scheduler, conversation, maxRequests, events, null);
    }

    private static Supplier<List<ToolDeclaration>> fixed(List<ToolDeclaration> tools) {
        return () -> tools;
    }

    /**
     * A loop whose tools are asked for before each request: tools that join or change mid-session (an MCP server's)
     * are offered from the next request on. {@code tools} should return the same list object while nothing changed.
     */
    public AgentLoop(
            ModelClient client,
            String model,
            Supplier<List<ToolDeclaration>> tools,
            CoreToolScheduler scheduler,
            Conversation conversation,
            int maxRequests,
            AgentEventSink events) {
        this(client, model, tools, scheduler, conversation, maxRequests, events, null);
    }

    private AgentLoop(
            ModelClient client,
            String model,
            Supplier<List<ToolDeclaration>> tools,
            CoreToolScheduler scheduler,
            Conversation conversation,
            int maxRequests,
            AgentEventSink events,
            TurnRequests parentRequests) {
        if (maxRequests < 1) {
            throw new IllegalArgumentException("maxRequests must be at least 1, was " + maxRequests);
        }
        this.client = client;
        this.model = model;
        this.tools = tools;
        declared();
        this.scheduler = scheduler;
        this.conversation = conversation;
        this.maxRequests = maxRequests;
        this.events = events;
        this.turnRequests = parentRequests == null ? new TurnRequests(maxRequests) : parentRequests.shared();
    }

    /**
     * A sub-agent's loop: its own model, tools, scheduler, conversation and turn limit, with this loop's provider
     * client (so the same retries and time-outs), context policy, reasoning effort and spending limit; its tools are
     * asked for before each request, as the main loop's are. Its requests
     * count against this loop's turn limit too, so a run's {@code --max-turns} bounds the sub-agents' work.
     */
    AgentLoop child(
            String model,
            Supplier<List<ToolDeclaration>> tools,
            CoreToolScheduler scheduler,
            Conversation conversation,
            int maxRequests,
            AgentEventSink events) {
        AgentLoop child =
                new AgentLoop(client, model, tools, scheduler, conversation, maxRequests, events, turnRequests);
        child.contextPolicy = contextPolicy;
        child.reasoningEffort = reasoningEffort;
        child.budgetSpent = () -> budgetSpent.getAsBoolean();
        return child;
    }

    public String model() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    /**
     * Continues the conversation with another provider's model. The history is provider-neutral, so the next
     * request is written, valid, in the new provider's format.
     */
    public void switchModel(ModelClient client, String model) {
        this.client = client;
        this.model = model;
    }

    public Conversation conversation() {
        return conversation;
    }

    public void setContextPolicy(ContextPolicy policy) {
        this.contextPolicy = policy;
    }

    public ContextPolicy contextPolicy() {
        return contextPolicy;
    }

    /** How hard the model should reason; empty leaves it to the provider's default. */
    public void setReasoningEffort(Optional<ReasoningEffort> effort) {
        this.reasoningEffort = java.util.Objects.requireNonNull(effort, "effort");
    }

    /**
     * A spending limit, asked after each reply that wants tools: when {@code spent} says true, that reply's calls are
     * answered without being run and the turn ends {@link TurnResult.Outcome#BUDGET_SPENT} before another request. The
     * caller keeps the account (it sees every {@link AgentEvent.Usage} first); core knows no prices.
     */
    public void setBudget(BooleanSupplier spent) {
        this.budgetSpent = java.util.Objects.requireNonNull(spent, "spent");
    }

    /** What runs at the edges of each turn (the user's UserPromptSubmit and Stop hooks). */
    public void setHooks(TurnHooks hooks) {
        this.hooks = java.util.Objects.requireNonNull(hooks, "hooks");
    }

    /** The tools to declare now, their token count updated when they changed since the last request. */
    private List<ToolDeclaration> declared() {
        List<ToolDeclaration> now = tools.get();
        if (now != declared) {
            declared = now;
            toolTokens = TokenEstimator.tools(now);
        }
        return now;
    }

    /** About how many tokens the next request's messages and tools take. */
    public long contextTokens() {
        return tokensOf(conversation.messages());
    }

    /** The last count, reported or estimated, plus an estimate of only what was added since: O(new), not O(all). */
    private long tokensOf(List<Message> messages) {
        if (knownMessages == 0 || knownMessages > messages.size()) {
            return TokenEstimator.messages(messages) + toolTokens;
        }
        return knownTokens + TokenEstimator.messages(messages.subList(knownMessages, messages.size()));
    }

    /**
     * Summarises the older part of the conversation into one message, keeping the last turns verbatim; what
     * {@code /compress} does, and what happens before a request that would pass the policy's threshold.
     *
     * @return the compression, or empty when the conversation is too short to have an older part
     * @throws ProviderException when the summary request fails; the conversation is then unchanged
     */
    public Optional<AgentEvent.Compressed> compress(Cancellation cancel) throws ProviderException {
        List<Message> messages = conversation.messages();
        OptionalInt split =
                ContextCompressor.splitPoint(messages, contextPolicy.keepTurns(), contextPolicy.keepBudget(model));
        if (split.isEmpty()) {
            return Optional.empty();
        }
        long before = contextTokens();
        ModelReply summarised =
                ContextCompressor.summarise(client, model, messages.subList(1, split.getAsInt()), cancel);
        // Billed like any request: cost, /stats and --max-cost count it (not the context size: it is not the history).
        summarised
                .usage()
                .ifPresent(used -> events.accept(new AgentEvent.Usage(used, AgentEvent.Usage.Source.PROVIDER)));
        String summary = summarised.text();
        if (cancel.isCancelled() || summary.isBlank()) {
            return Optional.empty();
        }
        conversation.compact(split.getAsInt(), summary);
        knownMessages = 0;
        AgentEvent.Compressed compressed = new AgentEvent.Compressed(split.getAsInt() - 1, before, contextTokens());
        events.accept(compressed);
        return Optional.of(compressed);
    }

    /** Compresses first when the next request would pass the threshold; a failed summary is reported, not fatal. */
    private void compressIfNeeded(Cancellation cancel) {
        if (!contextPolicy.overThreshold(contextTokens(), model)) {
            return;
        }
        try {
            compress(cancel);
        } catch (ProviderException e) {
            events.accept(new AgentEvent.CompressionFailed(e.getMessage()));
        }
    }

    /**
     * Runs the turn for {@code prompt}.
     *
     * @throws ProviderException when a model request fails; the conversation holds the prompt and every completed
     *     round before the failure, and stays valid
     * @throws IllegalArgumentException when {@code prompt} is blank: callers refuse that with a sentence of their own
     */
    public TurnResult run(String prompt, Cancellation cancel) throws ProviderException {
        if (prompt.isBlank()) {
            // Anthropic and Gemini take no blank text, so the turn would be left out and the request would end on the
            // model's own reply (a 400 on both), or hold no message at all.
            throw new IllegalArgumentException("A turn needs a prompt that is not blank.");
        }
        // A round that failed inside Dockhand may have left calls unanswered; a user message cannot follow them.
        conversation.answerPending(UNANSWERED);
        TokenUsage usage = new TokenUsage(0, 0);
        TurnHooks.Prompt submitted = hooks.promptSubmitted(prompt, cancel);
        if (submitted instanceof TurnHooks.Prompt.Blocked) {
            return complete(TurnResult.Outcome.PROMPT_BLOCKED, "", 0, usage);
        }
        conversation.addUser(((TurnHooks.Prompt.Accepted) submitted).text());
        loopGuard.newTurn();
        scheduler.newTurn();
        int sentBack = 0;
        turnRequests.newTurn();
        for (int request = 1; request <= maxRequests; request++) {
            if (!turnRequests.take()) {
                // Sub-agents used what was left of the turn's requests.
                return complete(TurnResult.Outcome.TURN_LIMIT, "", request - 1, usage);
            }
            compressIfNeeded(cancel);
            events.accept(new AgentEvent.RequestStarted(request));
            ModelReply reply = request(cancel);
            TokenUsage used = account(reply);
            usage = usage.plus(used);
            if (reply.finishReason() == FinishReason.CANCELLED || cancel.isCancelled()) {
                if (!reply.text().isEmpty()) {
                    conversation.addAssistant(new Message.Assistant(reply.text(), List.of()));
                }
                return complete(TurnResult.Outcome.CANCELLED, "", request, usage);
            }
            conversation.addAssistant(
                    new Message.Assistant(reply.text(), reply.toolCalls(), reply.reasoning(), reply.state()));
            Optional<String> loop = loopGuard.record(reply);
            if (loop.isPresent()) {
                refuseAll(reply, "The {tool} call was not run: " + loop.get());
                events.accept(new AgentEvent.LoopDetected(loop.get()));
                return complete(TurnResult.Outcome.LOOP_DETECTED, "", request, usage);
            }
            if (reply.finishReason() == FinishReason.LENGTH || reply.finishReason() == FinishReason.CONTENT_FILTER) {
                events.accept(new AgentEvent.ReplyCutShort(reply.finishReason()));
            }
            if (reply.toolCalls().isEmpty()) {
                // A Stop hook may send the model back to work, while a request is left to answer it.
                Optional<String> goOn = request < maxRequests && !cancel.isCancelled()
                        ? hooks.stopping(reply.text(), sentBack, cancel)
                        : Optional.empty();
                if (goOn.isPresent() && !cancel.isCancelled()) {
                    sentBack++;
                    conversation.addUser(new Message.User(goOn.get(), true));
                    continue;
                }
                return reply.text().isBlank()
                        ? complete(TurnResult.Outcome.EMPTY_REPLY, "", request, usage)
                        : complete(TurnResult.Outcome.ANSWERED, reply.text(), request, usage);
            }
            if (budgetSpent.getAsBoolean()) {
                refuseAll(reply, "The {tool} call was not run: the run reached its spending limit and stopped.");
                return complete(TurnResult.Outcome.BUDGET_SPENT, "", request, usage);
            }
            if (reply.finishReason() == FinishReason.LENGTH) {
                refuseCutOffCalls(reply);
                continue;
            }
            runRound(reply, cancel);
            if (cancel.isCancelled()) {
                return complete(TurnResult.Outcome.CANCELLED, "", request, usage);
            }
            if (budgetSpent.getAsBoolean()) {
                // The round's sub-agents spent what was left: the results are in, and no further request goes.
                return complete(TurnResult.Outcome.BUDGET_SPENT, "", request, usage);
            }
        }
        return complete(TurnResult.Outcome.TURN_LIMIT, "", maxRequests, usage);
    }

    /**
     * Runs the reply's calls and records their results. The scheduler answers every call whatever happens; should it
     * still fail, the calls left are answered here, so the conversation stays valid and the next message works.
     */
    private void runRound(ModelReply reply, Cancellation cancel) {
        try {
            for (CompletedCall done : scheduler.runRound(reply.toolCalls(), cancel)) {
                conversation.addToolResult(new Message.ToolResult(
                        done.call().id(),
                        done.call().name(),
                        done.result().llmContent(),
                        done.result().isError(),
                        done.result().images()));
            }
        } catch (RuntimeException | Error e) {
            LoggerFactory.getLogger(AgentLoop.class).error("a tool round failed", e);
            conversation.answerPending(UNANSWERED);
        }
    }

    /** Reports the reply's usage, estimated when the provider sent none, and how full the context is now. */
    private TokenUsage account(ModelReply reply) {
        TokenUsage used;
        if (reply.usage().isPresent()) {
            used = reply.usage().get();
            events.accept(new AgentEvent.Usage(used, AgentEvent.Usage.Source.PROVIDER));
        } else {
            used = new TokenUsage(knownTokens, TokenEstimator.reply(reply));
            events.accept(new AgentEvent.Usage(used, AgentEvent.Usage.Source.ESTIMATED));
        }
        knownTokens = used.inputTokens();
        events.accept(new AgentEvent.ContextUsed(knownTokens + used.outputTokens(), contextPolicy.windowFor(model)));
        return used;
    }

    /**
     * Sends one request. A failure mid-stream keeps the text that had arrived as an assistant message (its tool
     * calls, never complete, are dropped), so the conversation stays valid and records what the user saw.
     */
    private ModelReply request(Cancellation cancel) throws ProviderException {
        StringBuilder streamed = new StringBuilder();
        ModelClient.StreamListener listener = new ModelClient.StreamListener() {
            @Override
            public void onTextDelta(String text) {
                streamed.append(text);
                events.accept(new AgentEvent.TextDelta(text));
            }

            @Override
            public void onReasoningDelta(String text) {
                events.accept(new AgentEvent.ReasoningDelta(text));
            }

            @Override
            public void onRetry(ModelClient.RetryNotice notice) {
                events.accept(new AgentEvent.Retrying(
                        notice.attempt(), notice.maxAttempts(), notice.delay(), notice.reason()));
            }

            @Override
            public void onWarning(String message) {
                events.accept(new AgentEvent.Warning(message));
            }
        };
        List<ToolDeclaration> offered = declared();
        List<Message> messages = conversation.messages();
        // Until the reply says otherwise, the request's own size is the best count of its input.
        knownTokens = tokensOf(messages);
        knownMessages = messages.size();
        try {
            return client.stream(
                    new ModelRequest(model, messages, offered, reasoningEffort, scheduler.withheldDeclarations()),
                    listener,
                    cancel);
        } catch (ProviderException e) {
            if (streamed.length() > 0) {
                conversation.addAssistant(new Message.Assistant(streamed.toString(), List.of()));
            }
            events.accept(new AgentEvent.ReplyFailed(streamed.toString(), e.getMessage()));
            throw e;
        }
    }

    /**
     * The output limit cut the reply while it was writing tool calls: their arguments may be incomplete, so none
     * runs. Each is answered with the reason, which keeps the conversation valid and lets the model try smaller.
     */
    private void refuseCutOffCalls(ModelReply reply) {
        refuseAll(
                reply,
                "The {tool} call was not run: your reply reached the output token limit while writing it, so"
                        + " its arguments may be cut off. Make smaller calls (for example, write a large file in several"
                        + " edits).");
    }

    /** Answers every call of the reply, unrun, with {@code message}, where {@code {tool}} is the tool's name. */
    private void refuseAll(ModelReply reply, String message) {
        for (ToolCall call : reply.toolCalls()) {
            ToolResult refusal = ToolResult.error(ToolErrorType.INVALID_PARAMS, message.replace("{tool}", call.name()));
            events.accept(new AgentEvent.ToolCallFinished(call, ToolCallStatus.ERROR, refusal, "", Duration.ZERO));
            conversation.addToolResult(new Message.ToolResult(call.id(), call.name(), refusal.llmContent(), true));
        }
    }

    private TurnResult complete(TurnResult.Outcome outcome, String answer, int requests, TokenUsage usage) {
        TurnResult result = new TurnResult(outcome, answer, requests, usage);
        events.accept(new AgentEvent.TurnCompleted(result));
        return result;
    }
}
