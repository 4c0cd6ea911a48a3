package dev.dockhand.core.scheduler;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;

/**
 * Runs one round of tool calls and returns exactly one terminal result per call, in the calls' order, whatever
 * happens: that is what keeps the conversation valid. The round goes in three passes:
 *
 * <ol>
 *   <li>validate every call ({@link CallValidator}); a bad call becomes an error result for the model;
 *   <li>decide approval in order ({@link ApprovalPolicy}, then the {@link Approver} for calls that must ask);
 *   <li>execute ({@link ToolExecutor}): consecutive READ calls run together, any other call runs alone, in order,
 *       so a read after an edit sees the edit.
 * </ol>
 *
 * A cancel is checked before each call starts, so nothing starts after it; running calls are told through the
 * shared {@link Cancellation}, and every unfinished call ends CANCELLED. Since EDIT calls never run together, two
 * edits of one file in a round apply one after the other, never racing.
 */
public final class CoreToolScheduler {
    private final CallValidator validator;
    private final ToolExecutor executor;
    private final Approver approver;
    private final SessionApprovals sessionApprovals;
    private final AgentEventSink events;
    private final ToolEnvironment environment;
    private volatile ApprovalMode mode;

    public CoreToolScheduler(
            ToolRegistry registry,
            ToolEnvironment environment,
            Approver approver,
            ApprovalMode mode,
            AgentEventSink events) {
        this.validator = new CallValidator(registry);
        this.executor = new ToolExecutor(environment, events);
        this.environment = environment;
        this.approver = approver;
        this.sessionApprovals = new SessionApprovals();
        this.mode = mode;
        this.events = events;
    }

    /**
     * Starts the validator up (see {@link CallValidator#warm}): run on a spare thread before the first round, so that
     * the first call does not wait for the schema library and Jackson to start. Safe alongside {@link #runRound}.
     */
    public void warmValidation() {
        validator.warm();
    }

    public ApprovalMode approvalMode() {
        return mode;
    }

    public void setApprovalMode(ApprovalMode mode) {
        this.mode = mode;
    }

    public SessionApprovals sessionApprovals() {
        return sessionApprovals;
    }

    /**
     * Runs the round; the list has one completed call per input call, in the same order. If the calling thread is
     * interrupted, the calls not yet finished end CANCELLED and the interrupt flag is kept.
     */
    public List<CompletedCall> runRound(List<ToolCall> calls, Cancellation cancel) {
        Round round = new Round(calls);
        for (int i = 0; i < calls.size(); i++) {
            validate(round, i);
        }
        for (int i = 0; i < calls.size(); i++) {
            if (round.prepared[i] != null && round.done[i] == null) {
                approve(round, i, cancel);
            }
        }
        try {
            execute(round, cancel);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel.cancel();
            for (int i = 0; i < round.size(); i++) {
                if (round.done[i] == null) {
                    finish(
                            round,
                            i,
                            ToolResult.error(
                                    ToolErrorType.CANCELLED, "The user cancelled this call before it finished."),
                            Duration.ZERO);
                }
            }
        }
        return round.completed();
    }

    private void validate(Round round, int i) {
        ToolCall call = round.calls.get(i);
        events.accept(new AgentEvent.ToolCallUpdated(call, ToolCallStatus.VALIDATING, ""));
        CallValidator.Outcome outcome = validator.validate(call);
        if (outcome instanceof CallValidator.Invalid invalid) {
            finish(round, i, invalid.result(), Duration.ZERO);
        } else if (outcome instanceof CallValidator.Valid valid) {
            round.prepared[i] = valid.prepared();
        }
    }

    private void approve(Round round, int i, Cancellation cancel) {
        PreparedCall<?> prepared = round.prepared[i];
        String name = prepared.tool().name();
        if (cancel.isCancelled()) {
            finish(round, i, cancelledBeforeStart(), Duration.ZERO);
            return;
        }
        ApprovalPolicy.Verdict verdict = ApprovalPolicy.decide(prepared.kind(), mode, sessionApprovals.isAllowed(name));
        switch (verdict) {
            case ALLOW -> scheduled(prepared);
            case DENY -> finish(
                    round,
                    i,
                    notRun(
                            name,
                            "the session is in " + mode.cliName()
                                    + " mode, where only read-only tools run. Describe what you would do instead; the user can switch"
                                    + " modes to let it run."),
                    Duration.ZERO);
            case ASK -> ask(round, i, cancel);
        }
    }

    private void ask(Round round, int i, Cancellation cancel) {
        PreparedCall<?> prepared = round.prepared[i];
        events.accept(
                new AgentEvent.ToolCallUpdated(prepared.call(), ToolCallStatus.AWAITING_APPROVAL, prepared.summary()));
        ApprovalDecision decision = approver.decide(
                new ApprovalRequest(prepared.call(), prepared.kind(), prepared.summary(), preview(prepared)));
        if (cancel.isCancelled()) {
            finish(round, i, cancelledBeforeStart(), Duration.ZERO);
            return;
        }
        switch (decision.outcome()) {
            case ALLOW_ONCE -> scheduled(prepared);
            case ALLOW_FOR_SESSION -> {
                sessionApprovals.allow(prepared.tool().name());
                scheduled(prepared);
            }
            case DENY -> finish(
                    round,
                    i,
                    notRun(prepared.tool().name(), decision.denial().orElse("the user denied it.")),
                    Duration.ZERO);
        }
    }

    /** A preview that fails to compute must not block the question; the user still sees the summary. */
    private Optional<String> preview(PreparedCall<?> prepared) {
        try {
            return prepared.preview(environment.workspace());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private void scheduled(PreparedCall<?> prepared) {
        events.accept(new AgentEvent.ToolCallUpdated(prepared.call(), ToolCallStatus.SCHEDULED, prepared.summary()));
    }

    private void execute(Round round, Cancellation cancel) throws InterruptedException {
        int i = 0;
        while (i < round.size()) {
            if (round.done[i] != null) {
                i++;
                continue;
            }
            int end = i + 1;
            if (round.prepared[i].kind() == ToolKind.READ) {
                while (end < round.size() && round.done[end] == null && round.prepared[end].kind() == ToolKind.READ) {
                    end++;
                }
            }
            runBatch(round, i, end, cancel);
            i = end;
        }
    }

    /** Runs calls {@code [from, to)} together; they are all READ calls or a single call of another kind. */
    private void runBatch(Round round, int from, int to, Cancellation cancel) throws InterruptedException {
        List<Future<ToolExecutor.Outcome>> futures = new ArrayList<>();
        long[] starts = new long[to - from];
        for (int i = from; i < to; i++) {
            if (cancel.isCancelled()) {
                // Re-checked between SCHEDULED and EXECUTING: nothing starts after a cancel.
                futures.add(null);
                continue;
            }
            PreparedCall<?> prepared = round.prepared[i];
            events.accept(
                    new AgentEvent.ToolCallUpdated(prepared.call(), ToolCallStatus.EXECUTING, prepared.summary()));
            starts[i - from] = System.nanoTime();
            futures.add(executor.start(prepared, cancel));
        }
        for (int i = from; i < to; i++) {
            Future<ToolExecutor.Outcome> future = futures.get(i - from);
            if (future == null) {
                finish(round, i, cancelledBeforeStart(), Duration.ZERO);
                continue;
            }
            ToolExecutor.Outcome outcome = executor.await(future, cancel, starts[i - from]);
            finish(round, i, outcome.result(), outcome.duration());
        }
    }

    private void finish(Round round, int i, ToolResult result, Duration duration) {
        ToolCall call = round.calls.get(i);
        PreparedCall<?> prepared = round.prepared[i];
        String summary = prepared == null ? "" : prepared.summary();
        ToolCallStatus status = result.error()
                .map(type -> type == ToolErrorType.CANCELLED ? ToolCallStatus.CANCELLED : ToolCallStatus.ERROR)
                .orElse(ToolCallStatus.SUCCESS);
        CompletedCall completed = new CompletedCall(call, status, result, summary, duration);
        round.done[i] = completed;
        events.accept(new AgentEvent.ToolCallFinished(call, status, result, summary, duration));
    }

    private static ToolResult notRun(String toolName, String clause) {
        return ToolResult.error(ToolErrorType.NOT_APPROVED, "The " + toolName + " call was not run: " + clause);
    }

    private static ToolResult cancelledBeforeStart() {
        return ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled this call before it started.");
    }

    /** The mutable state of one round: per call, its prepared form (once valid) and its completion (once done). */
    private static final class Round {
        final List<ToolCall> calls;
        final PreparedCall<?>[] prepared;
        final CompletedCall[] done;

        Round(List<ToolCall> calls) {
            this.calls = List.copyOf(calls);
            this.prepared = new PreparedCall<?>[calls.size()];
            this.done = new CompletedCall[calls.size()];
        }

        int size() {
            return calls.size();
        }

        List<CompletedCall> completed() {
            return List.copyOf(Arrays.asList(done));
        }
    }
}
