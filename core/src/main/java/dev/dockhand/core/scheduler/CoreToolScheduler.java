package dev.dockhand.core.scheduler;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.conversation.ToolCall;
import dev.dockhand.core.model.ToolDeclaration;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.ProtectedPaths;
import dev.dockhand.core.tool.Tool;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WriteGuard;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import org.slf4j.LoggerFactory;

/**
 * Runs one round of tool calls and returns exactly one terminal result per call, in the calls' order, whatever
 * happens: that is what keeps the conversation valid. The calls go in batches, in the model's order: consecutive calls
 * of {@linkplain Tool#concurrencySafe concurrency-safe} tools run together, any other call runs alone. Each call of a
 * batch is prepared just before the batch runs, so after every earlier call of the round has finished:
 *
 * <ol>
 *   <li>validate ({@link CallValidator}); a bad call becomes an error result for the model;
 *   <li>ask the {@link CallHooks} (the user's PreToolUse hooks), which may block the call or change its arguments,
 *       which are validated again;
 *   <li>decide approval (the settings' {@link PermissionRules} first, then {@link ApprovalPolicy}, then the
 *       {@link Approver} for calls that must ask), so an edit's
 *       preview is computed against the file as the earlier calls left it;
 *   <li>execute ({@link ToolExecutor}); the hooks may then add a note to the result.
 * </ol>
 *
 * Each call is a {@link ScheduledCall} that ends once. Nothing a tool, the approver, the disk or a listener throws
 * escapes: it becomes that call's error result (the stack trace goes to the log), and a failure of the round itself
 * answers every call left. A cancel is checked before each call starts, so nothing starts after it; running calls are
 * told through the shared {@link Cancellation}, and every unfinished call ends CANCELLED.
 */
public final class CoreToolScheduler {
    /**
     * At most this many read-only calls run at once; the rest of a long run of them waits for the next batch. A reply
     * of a thousand greps must not start a thousand threads and ripgrep processes on the user's machine. Claude Code
     * runs ten at a time too.
     */
    static final int MAX_TOGETHER = 10;

    private final ToolRegistry registry;
    private final CallValidator validator;
    private final ToolExecutor executor;
    private final Approver approver;
    private final SessionApprovals sessionApprovals;
    private final AgentEventSink events;
    private final ToolEnvironment environment;
    private final ApprovalRules rules;
    private final RepeatedFailures repeatedFailures = new RepeatedFailures();
    private volatile ApprovalMode mode;
    private volatile CallCheckpoints checkpoints = CallCheckpoints.NONE;
    private volatile PermissionRules permissions;
    private volatile CallHooks hooks = CallHooks.NONE;
    /** The main agent's scheduler, whose approval mode a sub-agent's follows; null for the main agent's own. */
    private final CoreToolScheduler parent;

    private volatile Redactor redactor = Redactor.OFF;

    public CoreToolScheduler(
            ToolRegistry registry,
            ToolEnvironment environment,
            Approver approver,
            ApprovalMode mode,
            AgentEventSink events) {
        this(registry, environment, approver, mode, ApprovalRules.DEFAULT, events);
    }

    public CoreToolScheduler(
            ToolRegistry registry,
            ToolEnvironment environment,
            Approver approver,
            ApprovalMode mode,
            ApprovalRules rules,
            AgentEventSink events) {
        this(registry, environment, approver, mode, rules, events, new SessionApprovals(), null);
    }

    private CoreToolScheduler(
            ToolRegistry registry,
            ToolEnvironment environment,
            Approver approver,
            ApprovalMode mode,
            ApprovalRules rules,
            AgentEventSink events,
            SessionApprovals sessionApprovals,
            CoreToolScheduler parent) {
        this.registry = registry;
        this.events = contained(events);
        this.validator = new CallValidator(registry);
        this.executor = new ToolExecutor(environment, this.events);
        this.environment = environment;
        this.approver = approver;
        this.sessionApprovals = sessionApprovals;
        this.mode = mode;
        this.rules = rules;
        this.permissions = rules.permissions();
        this.parent = parent;
    }

    /**
     * A scheduler for a sub-agent: its own tools, approver and events, and the same workspace, sandbox, rules, session
     * approvals and approval mode as this one (the mode followed as the user changes it), so a sub-agent's call runs
     * exactly when the same call of the main agent would.
     */
    public CoreToolScheduler forSubAgent(ToolRegistry tools, Approver approver, AgentEventSink events) {
        CoreToolScheduler child =
                new CoreToolScheduler(tools, environment, approver, mode, rules, events, sessionApprovals, this);
        // The same checkpoints, hooks and redactor: a sub-agent's edit can be undone, meets the user's hooks, and its
        // results are redacted like any other.
        child.checkpoints = checkpoints;
        child.hooks = hooks;
        child.redactor = redactor;
        return child;
    }

    /** A listener that throws (a rendering bug) is logged; it must not take a call or the round down with it. */
    private static AgentEventSink contained(AgentEventSink events) {
        return event -> {
            try {
                events.accept(event);
            } catch (RuntimeException | Error e) {
                LoggerFactory.getLogger(CoreToolScheduler.class).error("an event listener failed on {}", event, e);
            }
        };
    }

    /**
     * Starts the validator up (see {@link CallValidator#warm}): run on a spare thread before the first round, so that
     * the first call does not wait for the schema library and Jackson to start. Safe alongside {@link #runRound}.
     */
    public void warmValidation() {
        validator.warm();
    }

    /** The tools this scheduler knows but does not offer, as the model would be told of them. */
    public List<ToolDeclaration> withheldDeclarations() {
        return registry.withheldDeclarations();
    }

    public ApprovalMode approvalMode() {
        return parent == null ? mode : parent.approvalMode();
    }

    public void setApprovalMode(ApprovalMode mode) {
        this.mode = mode;
    }

    /** Who records the workspace around each call that may change it; none by default. */
    public void setCheckpoints(CallCheckpoints checkpoints) {
        this.checkpoints = java.util.Objects.requireNonNull(checkpoints, "checkpoints");
    }

    /** The permission rules in force; the REPL adds and removes rules while the session runs. */
    public PermissionRules permissions() {
        return parent == null ? permissions : parent.permissions();
    }

    public void setPermissions(PermissionRules permissions) {
        this.permissions = permissions;
    }

    /** What runs around each call: before its approval, and after it ran (the user's hooks). */
    public void setHooks(CallHooks hooks) {
        this.hooks = java.util.Objects.requireNonNull(hooks, "hooks");
    }

    /**
     * The session's redactor: every call's result and streamed output pass through it on their way to the model, and
     * the calls it {@linkplain Redactor#expandsInto expands into} get the values of its placeholders back. Off until
     * set.
     */
    public void setRedactor(Redactor redactor) {
        this.redactor = redactor;
    }

    public Redactor redactor() {
        return redactor;
    }

    public SessionApprovals sessionApprovals() {
        return sessionApprovals;
    }

    /** A new prompt from the user: calls that kept failing are no longer counted as repeats (see RepeatedFailures). */
    public void newTurn() {
        repeatedFailures.reset();
    }

    /**
     * Runs the round; the list has one completed call per input call, in the same order. If the calling thread is
     * interrupted, the calls not yet finished end CANCELLED and the interrupt flag is kept.
     */
    public List<CompletedCall> runRound(List<ToolCall> calls, Cancellation cancel) {
        List<ScheduledCall> round = new ArrayList<>();
        for (ToolCall call : calls) {
            Redactor redaction = redactor;
            round.add(
                    new ScheduledCall(call, events, redaction::redact, result -> repeatedFailures.check(call, result)));
        }
        try {
            int next = 0;
            while (next < round.size()) {
                next = runBatch(round, next, cancel);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel.cancel();
            finishAll(round, cancelled("before it finished"));
        } catch (RuntimeException | Error e) {
            LoggerFactory.getLogger(CoreToolScheduler.class).error("a tool round failed", e);
            finishAll(round, internal("Dockhand failed while running this round (" + e + ")", "not run"));
        }
        // Belt and braces: a call no path above finished still gets its one result.
        finishAll(round, internal("Dockhand lost track of this call", "not run"));
        repeatedFailures.endRound();
        List<CompletedCall> completed = new ArrayList<>();
        for (ScheduledCall call : round) {
            completed.add(call.completed().orElseThrow());
        }
        return List.copyOf(completed);
    }

    /**
     * Prepares and runs the batch that starts at {@code from}: one call, or up to {@link #MAX_TOGETHER} consecutive
     * concurrency-safe ones, each prepared in order right before the batch starts. Returns the index after the batch.
     */
    private int runBatch(List<ScheduledCall> round, int from, Cancellation cancel) throws InterruptedException {
        List<ScheduledCall> batch = new ArrayList<>();
        int next = from;
        boolean together;
        do {
            ScheduledCall call = round.get(next++);
            together = concurrencySafe(call.call());
            prepare(call, cancel);
            if (!call.isDone()) {
                batch.add(call);
            }
        } while (together
                && batch.size() < MAX_TOGETHER
                && next < round.size()
                && concurrencySafe(round.get(next).call()));
        execute(batch, cancel);
        return next;
    }

    private boolean concurrencySafe(ToolCall call) {
        try {
            return registry.find(call.name())
                    .map(tool -> tool.concurrencySafe(call.arguments()))
                    .orElse(true);
        } catch (RuntimeException | Error e) {
            return false;
        }
    }

    /** Validates and approves one call; any failure ends the call with a result saying so. */
    private void prepare(ScheduledCall call, Cancellation cancel) {
        if (cancel.isCancelled()) {
            call.finish(cancelledBeforeStart(), Duration.ZERO);
            return;
        }
        call.advance(ToolCallStatus.VALIDATING);
        CallValidator.Outcome outcome;
        try {
            outcome = validator.validate(call.call());
        } catch (RuntimeException | Error e) {
            log(call, "validating", e);
            call.finish(
                    internal("checking this call's arguments failed inside Dockhand (" + e + ")", "not run"),
                    Duration.ZERO);
            return;
        }
        if (outcome instanceof CallValidator.Invalid invalid) {
            call.finish(invalid.result(), Duration.ZERO);
            return;
        }
        call.prepared(((CallValidator.Valid) outcome).prepared());
        if (!beforeCall(call, cancel)) {
            return;
        }
        try {
            approve(call, cancel);
        } catch (RuntimeException | Error e) {
            log(call, "approving", e);
            if (cancel.isCancelled()) {
                // The question failed because the user was cancelling: that is what the call's end should say.
                call.finish(cancelledBeforeStart(), Duration.ZERO);
                return;
            }
            call.finish(
                    ToolResult.error(
                            ToolErrorType.NOT_APPROVED,
                            "The " + call.call().name() + " call was not run: asking for approval failed (" + e
                                    + "), and a call nobody approved does not run."),
                    Duration.ZERO);
        }
    }

    /**
     * Asks the {@link CallHooks} before the approval: a blocked call ends with the reason for the model, and changed
     * arguments are validated again, as the model's were. Returns whether the call goes on. A failure inside Dockhand
     * ends the call unrun: a hook may be the user's policy, and a call it could not check does not run.
     */
    private boolean beforeCall(ScheduledCall call, Cancellation cancel) {
        String name = call.call().name();
        try {
            // The hooks see the call as it will run, as the rules do: a policy hook checking the placeholder's text
            // would pass "; rm -rf ~" hidden behind it. What they say back is redacted again before the model or the
            // transcript gets it.
            Redactor redaction = redactor;
            CallHooks.Before before = hooks.beforeCall(call.prepared().asRun(redaction), approvalMode(), cancel);
            if (cancel.isCancelled()) {
                call.finish(cancelledBeforeStart(), Duration.ZERO);
                return false;
            }
            if (before instanceof CallHooks.Before.Blocked blocked) {
                call.finish(
                        notRun(
                                name,
                                "a PreToolUse hook blocked it: "
                                        + redaction.redact(blocked.reason()).text()),
                        Duration.ZERO);
                return false;
            }
            CallHooks.Before.GoOn goOn = (CallHooks.Before.GoOn) before;
            goOn.note().ifPresent(call::hookNote);
            if (goOn.arguments().isEmpty()) {
                return true;
            }
            String arguments = hookArguments(goOn.arguments().get(), name, redaction);
            CallValidator.Outcome changed =
                    validator.validate(new ToolCall(call.call().id(), name, arguments));
            if (changed instanceof CallValidator.Invalid invalid) {
                call.finish(
                        ToolResult.error(
                                ToolErrorType.INVALID_PARAMS,
                                "The " + name + " call was not run: a PreToolUse hook changed its arguments to "
                                        + arguments + ", which the tool refuses. "
                                        + invalid.result().llmContent()),
                        Duration.ZERO);
                return false;
            }
            call.prepared(((CallValidator.Valid) changed).prepared());
            return true;
        } catch (RuntimeException | Error e) {
            log(call, "running the PreToolUse hooks of", e);
            call.finish(internal("its PreToolUse hooks failed inside Dockhand (" + e + ")", "not run"), Duration.ZERO);
            return false;
        }
    }

    /**
     * The arguments a PreToolUse hook gave back, to be recorded and shown: for a tool that gets placeholders' values
     * put back, with the values the hook was given (or any secret) redacted again, string by string (a value's JSON
     * escaping would hide it from a search of the text); for another tool, as the hook gave them, since it runs with
     * them as they are.
     */
    private static String hookArguments(String arguments, String tool, Redactor redaction) {
        if (!redaction.expandsInto(tool)) {
            return arguments;
        }
        try {
            return Json.write(redaction.redact(Json.MAPPER.readTree(arguments)));
        } catch (IOException | RuntimeException unparsed) {
            // Not JSON: the validator refuses it below, with the text as redacted as text can be.
            return redaction.redact(arguments).text();
        }
    }

    /**
     * The result with what the hooks add: the PreToolUse hooks' note, then the PostToolUse hooks'. A failure of the
     * hooks leaves the result as the tool gave it: the call ran, and that is what the model must read.
     */
    private ToolResult afterCall(ScheduledCall call, ToolResult result, Cancellation cancel) {
        if (result.error().filter(type -> type == ToolErrorType.CANCELLED).isPresent() || cancel.isCancelled()) {
            return result;
        }
        List<String> notes = new ArrayList<>();
        if (call.hookNote() != null) {
            notes.add(call.hookNote());
        }
        try {
            hooks.afterCall(call.prepared().asRun(redactor), result, approvalMode(), cancel)
                    .ifPresent(notes::add);
        } catch (RuntimeException | Error e) {
            log(call, "running the PostToolUse hooks of", e);
        }
        if (notes.isEmpty()) {
            return result;
        }
        return result.withText(
                result.llmContent() + "\n\n" + String.join("\n\n", notes), result.display(), result.error());
    }

    private void approve(ScheduledCall call, Cancellation cancel) {
        PreparedCall<?> prepared = call.prepared();
        String name = prepared.tool().name();
        // Every decision is made on the call as it will run, with the placeholders' values put back: a value can
        // hold "; rm -rf ~" or a path, and a rule or a protected path checked on its placeholder would miss it.
        Redactor redaction = redactor;
        PreparedCall<?> runs = prepared.expanded(redaction);
        call.runs(runs);
        // The permission rules come first: a deny holds in every mode, an ask asks even in yolo.
        PermissionRules rulesNow = permissions();
        PermissionRules.Verdict ruled = rulesNow.rules().isEmpty()
                ? PermissionRules.Verdict.NONE
                : rulesNow.decide(CallFacts.of(prepared.asRun(redaction), environment.workspace()));
        if (ruled.is(PermissionRule.Decision.DENY)) {
            call.finish(notRun(name, refusedBy(ruled.rule().orElseThrow())), Duration.ZERO);
            return;
        }
        Optional<ApprovalRequest.Explicit> explicit = explicit(runs);
        if (ruled.is(PermissionRule.Decision.ASK) && explicit.isEmpty()) {
            PermissionRule rule = ruled.rule().orElseThrow();
            String why = ruled.unchecked()
                    ? (PermissionRule.subjectOf(name) == PermissionRule.Subject.DOMAIN
                                    ? "The URL has no host that the fetch would read the same way"
                                    : "The command's name is known only when it runs ($X, $(…), a glob)")
                            + ", so the permission rule \""
                            + rule.decision().key() + " " + rule.text() + "\" (" + rule.source()
                            + ") cannot be checked against it; the user decides about this call, whatever the"
                            + " approval mode."
                    : "The permission rule \"ask " + rule.text() + "\" (" + rule.source()
                            + ") asks the user about this call, whatever the approval mode.";
            explicit = Optional.of(new ApprovalRequest.Explicit(why, Optional.empty()));
        }
        ApprovalMode mode = approvalMode();
        ApprovalPolicy.Verdict verdict = ApprovalPolicy.decide(
                prepared.kind(),
                mode,
                sessionApprovals.isAllowed(name)
                        || prepared.tool()
                                .approvalGroup()
                                .filter(sessionApprovals::isGroupAllowed)
                                .isPresent()
                        || rules.allowedTools().contains(name)
                        || ruled.is(PermissionRule.Decision.ALLOW),
                explicit.isPresent() ? ApprovalPolicy.Explicit.REQUIRED : ApprovalPolicy.Explicit.NO);
        switch (verdict) {
            case ALLOW -> call.advance(ToolCallStatus.SCHEDULED);
            case DENY -> call.finish(
                    notRun(
                            name,
                            "the session is in " + mode.cliName()
                                    + " mode, where only read-only tools run. Describe what you would do instead; the"
                                    + " user can switch modes to let it run."),
                    Duration.ZERO);
            case ASK -> ask(call, explicit, cancel, redaction);
        }
    }

    /**
     * Asks the approver about the call as it will run: the placeholders whose values could change what it does are
     * shown expanded (see {@link Redactor#shown}) in the call shown and the preview; the request's call and summary
     * keep them, for whatever an approver logs or saves.
     */
    private void ask(
            ScheduledCall call, Optional<ApprovalRequest.Explicit> explicit, Cancellation cancel, Redactor redaction) {
        PreparedCall<?> prepared = call.prepared();
        call.advance(ToolCallStatus.AWAITING_APPROVAL);
        ApprovalDecision decision = approver.decide(new ApprovalRequest(
                        prepared.call(), prepared.kind(), prepared.summary(), preview(call.runs(), redaction), explicit)
                .showing(prepared.asShown(redaction)));
        if (decision.outcome() == ApprovalDecision.Outcome.CANCEL_TURN) {
            // Before the cancel: the calls after this one end "before it started" as the cancel reaches them.
            call.finish(
                    cancelled("at its approval question, and the rest of the turn with it; it did not run"),
                    Duration.ZERO);
            cancel.cancel();
            return;
        }
        if (cancel.isCancelled()) {
            call.finish(cancelledBeforeStart(), Duration.ZERO);
            return;
        }
        if (decision.outcome() != ApprovalDecision.Outcome.DENY) {
            explicit.flatMap(ApprovalRequest.Explicit::protectedEntry).ifPresent(call::approvedProtected);
        }
        switch (decision.outcome()) {
            case ALLOW_ONCE -> call.advance(ToolCallStatus.SCHEDULED);
            case ALLOW_FOR_SESSION, ALLOW_GROUP_FOR_SESSION -> {
                // An explicit yes answers for this call only: the next one is asked again.
                if (explicit.isEmpty()) {
                    Optional<String> group = decision.outcome() == ApprovalDecision.Outcome.ALLOW_GROUP_FOR_SESSION
                            ? prepared.tool().approvalGroup()
                            : Optional.empty();
                    if (group.isPresent()) {
                        sessionApprovals.allowGroup(group.get());
                    } else {
                        sessionApprovals.allow(prepared.tool().name());
                    }
                }
                call.advance(ToolCallStatus.SCHEDULED);
            }
            case DENY, CANCEL_TURN -> call.finish(
                    notRun(prepared.tool().name(), decision.denial().orElse("the user denied it.")), Duration.ZERO);
        }
    }

    /** Why this call needs the user's own yes whatever the mode: a protected path it writes, or its kind. */
    private Optional<ApprovalRequest.Explicit> explicit(PreparedCall<?> prepared) {
        for (String written : prepared.writes()) {
            Optional<ProtectedPaths.Protection> protection = protection(written);
            if (protection.isPresent()) {
                return Optional.of(new ApprovalRequest.Explicit(
                        protection.get().describe()
                                + " Only the user's own yes to this call lets a tool change it, whatever the approval"
                                + " mode.",
                        Optional.of(protection.get().entry())));
            }
        }
        String reason = rules.explicitKinds().get(prepared.kind());
        return reason == null ? Optional.empty() : Optional.of(new ApprovalRequest.Explicit(reason, Optional.empty()));
    }

    /**
     * The protection of a path a call writes, checked as given and as it really is: a symlink inside the workspace
     * that leads to {@code .git/hooks} protects the same. A path outside the workspace is the tool's to refuse.
     */
    private Optional<ProtectedPaths.Protection> protection(String written) {
        Path path;
        try {
            path = environment.workspace().resolve(written);
        } catch (PathOutsideWorkspaceException e) {
            return Optional.empty();
        }
        ProtectedPaths paths = rules.protectedPaths();
        // Where the path leads decides first, as it does again when the call writes (guard): a hook that is a link to
        // scripts/pre-commit is asked about, and approved, as scripts/pre-commit, the file that changes.
        Optional<ProtectedPaths.Protection> real;
        try {
            real = paths.check(environment.workspace(), Workspace.realPathOf(path));
        } catch (IOException e) {
            real = Optional.empty();
        }
        return real.isPresent() ? real : paths.check(environment.workspace(), path);
    }

    /**
     * The protected-path check made again when the call opens its file, on the real path it is about to walk: a link
     * swapped in between the approval and the write (by a background command, while the user read the question)
     * cannot steer it into a protected path the user did not say yes to.
     */
    private WriteGuard guard(ScheduledCall call) {
        String approved = call.approvedProtected();
        return real -> {
            Optional<ProtectedPaths.Protection> protection =
                    rules.protectedPaths().check(environment.workspace(), real);
            if (protection.isPresent() && !protection.get().entry().equals(approved)) {
                throw new PathOutsideWorkspaceException(protection.get().describe()
                        + " The path led there only once the call ran, after it was approved, so nothing was"
                        + " written.");
            }
        };
    }

    /**
     * A preview that fails to compute must not block the question; the user still sees the summary. It is computed
     * with the placeholders' values, as the call will run, and shown with placeholders again but for the values that
     * could change what the call does ({@link Redactor#shown}).
     */
    private Optional<String> preview(PreparedCall<?> runs, Redactor redaction) {
        try {
            boolean expands = redaction.expandsInto(runs.tool().name());
            return runs.preview(environment.workspace()).map(text -> {
                String redacted = redaction.redact(text).text();
                // Values are shown only where they will be put in: another tool gets the placeholders as written.
                return expands ? redaction.shown(redacted) : redacted;
            });
        } catch (RuntimeException | Error e) {
            LoggerFactory.getLogger(CoreToolScheduler.class)
                    .warn("the preview of {} failed", runs.call().id(), e);
            return Optional.empty();
        }
    }

    /** Runs the approved calls of one batch together and finishes each with its outcome. */
    private void execute(List<ScheduledCall> batch, Cancellation cancel) throws InterruptedException {
        List<Future<ToolExecutor.Outcome>> futures = new ArrayList<>();
        List<Optional<CallCheckpoints.Taken>> taken = new ArrayList<>();
        long[] starts = new long[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            ScheduledCall call = batch.get(i);
            if (cancel.isCancelled()) {
                // Re-checked between SCHEDULED and EXECUTING: nothing starts after a cancel.
                futures.add(null);
                taken.add(Optional.empty());
                continue;
            }
            taken.add(checkpoint(call.prepared()));
            call.advance(ToolCallStatus.EXECUTING);
            starts[i] = System.nanoTime();
            futures.add(executor.start(call.runs(), cancel, guard(call), redactor));
        }
        for (int i = 0; i < batch.size(); i++) {
            Future<ToolExecutor.Outcome> future = futures.get(i);
            if (future == null) {
                batch.get(i).finish(cancelledBeforeStart(), Duration.ZERO);
                continue;
            }
            ToolExecutor.Outcome outcome = executor.await(future, cancel, starts[i]);
            ScheduledCall done = batch.get(i);
            // After the PostToolUse hooks: what a formatter hook rewrote is part of the call's change too.
            ToolResult result = afterCall(done, outcome.result(), cancel);
            taken.get(i).ifPresent(checkpoint -> recordChanges(done.call(), checkpoint));
            done.finish(result, outcome.duration());
        }
    }

    /** A checkpoint before a call that may change the workspace; one that fails is reported, and the call runs. */
    private Optional<CallCheckpoints.Taken> checkpoint(PreparedCall<?> prepared) {
        if (prepared.kind() != ToolKind.EDIT && prepared.kind() != ToolKind.EXECUTE) {
            return Optional.empty();
        }
        try {
            return Optional.of(checkpoints.before(prepared.call(), prepared.summary()));
        } catch (Exception | Error e) {
            LoggerFactory.getLogger(CoreToolScheduler.class)
                    .warn(
                            "no checkpoint before {} ({})",
                            prepared.call().id(),
                            prepared.call().name(),
                            e);
            events.accept(new AgentEvent.Warning(
                    "No checkpoint was taken before the " + prepared.call().name() + " call (" + e.getMessage()
                            + "); what it changes cannot be undone with /undo."));
            return Optional.empty();
        }
    }

    private void recordChanges(ToolCall call, CallCheckpoints.Taken checkpoint) {
        try {
            checkpoint.after();
        } catch (Exception | Error e) {
            LoggerFactory.getLogger(CoreToolScheduler.class)
                    .warn("the changes of {} ({}) were not recorded", call.id(), call.name(), e);
            events.accept(new AgentEvent.Warning("What the " + call.name() + " call changed was not recorded ("
                    + e.getMessage() + "); /undo restores from the checkpoint before it all the same."));
        }
    }

    private static void finishAll(List<ScheduledCall> round, ToolResult result) {
        for (ScheduledCall call : round) {
            call.finish(result, Duration.ZERO);
        }
    }

    private static void log(ScheduledCall call, String what, Throwable e) {
        LoggerFactory.getLogger(CoreToolScheduler.class)
                .error(
                        "{} call {} ({}) failed",
                        what,
                        call.call().id(),
                        call.call().name(),
                        e);
    }

    private static String refusedBy(PermissionRule rule) {
        return "the permission rule \"deny " + rule.text() + "\" (" + rule.source() + ") refuses it, whatever the"
                + " approval mode. Do not try to get around it another way: finish what you can without it and tell"
                + " the user what was not done.";
    }

    private static ToolResult notRun(String toolName, String clause) {
        return ToolResult.error(ToolErrorType.NOT_APPROVED, "The " + toolName + " call was not run: " + clause);
    }

    private static ToolResult internal(String what, String outcome) {
        return ToolResult.error(
                ToolErrorType.INTERNAL,
                "This call was " + outcome + ": " + what + ". This is a Dockhand bug, not a problem with the"
                        + " arguments; try another way.");
    }

    private static ToolResult cancelled(String when) {
        return ToolResult.error(ToolErrorType.CANCELLED, "The user cancelled this call " + when + ".");
    }

    private static ToolResult cancelledBeforeStart() {
        return cancelled("before it started");
    }
}
