package dev.dockhand.cli.headless;

import dev.dockhand.cli.config.Headless;
import dev.dockhand.cli.config.Pricing;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Interrupts;
import dev.dockhand.cli.environment.TerminalText;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.cli.session.CostMeter;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One prompt, answered, then exit: {@code dockhand -p}. Nobody can approve, so calls that would ask are refused
 * (and the run exits 54); Ctrl-C cancels the turn (running commands are killed) and the run exits 130; a last reply
 * with neither text nor a tool call is no answer, said on stderr, and the run exits 1. With
 * {@code --output-format json} or {@code stream-json}, stdout carries only JSON; people read stderr. A prompt that
 * names a custom command or {@code /init} runs that ({@link HeadlessPrompt}).
 */
public final class SingleShot {
    /**
     * What stderr (and the JSON error) says when the model's last reply was empty. The run exits 1, "the model
     * failed": it ended the turn without answering. When a call was refused for want of approval, that is the likelier
     * cause, so its exit code (54) and advice win.
     */
    static final String EMPTY_REPLY = "the model's last reply had neither text nor a tool call, so there is no"
            + " answer; run it again, or try another model.";

    /** What counts {@code --max-wall-time} down; a test replaces it to end the time at a point it chooses. */
    public static volatile RunLimits.WallTimer wallTimer = RunLimits.WallTimer.SYSTEM;

    private final RunOptions options;
    private final CliEnvironment environment;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Cancellation cancel = new Cancellation();
    private volatile String loopMessage = "";
    private volatile String sessionId;
    /** The open session, whose model a custom command may switch for its turn; null until it opens. */
    private volatile AgentSession open;

    public SingleShot(RunOptions options, CliEnvironment environment, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.environment = environment;
        this.out = out;
        this.err = err;
    }

    /** The cancellation of this run's turn, for the SIGINT handler and for tests. */
    public Cancellation cancellation() {
        return cancel;
    }

    /** Makes Ctrl-C cancel the turn; a second or third ends the run as {@link RepeatedInterrupts} says. */
    public void cancelOnSigint() {
        RepeatedInterrupts interrupts = new RepeatedInterrupts(cancel, RepeatedInterrupts.Exits.SYSTEM);
        Interrupts.onSigint(interrupts::interrupted);
    }

    /** How the run ended: its exit code, the answer, and the failure if there was one. */
    private record Ending(int exitCode, String answer, RunReport.RunFailure failure) {}

    public int run() {
        long started = System.nanoTime();
        HeadlessPrompt asked = HeadlessPrompt.of(options.prompt().orElseThrow(), environment, err);
        String sessionId = options.resume()
                .map(wanted -> AgentSession.findSession(
                        new Sessions(environment.home(), environment.workingDirectory()), wanted))
                .orElseGet(AgentSession::newSessionId);
        Headless headless = options.headless();
        boolean machine = headless.format() != Headless.Format.TEXT;
        SingleShotRenderer human = new SingleShotRenderer(
                machine ? new PrintWriter(Writer.nullWriter()) : out, err, options.showThinking());
        CostMeter cost = new CostMeter(options::pricing, () -> {
            AgentSession session = open;
            return session == null ? options.model().model() : session.model().model();
        });
        RunReport report = new RunReport(cost);
        // JSON escapes what a terminal would act on itself, and the text filter would break it (see TerminalText).
        PrintWriter json = TerminalText.unfiltered(out);
        StreamJsonRenderer stream =
                headless.format() == Headless.Format.STREAM_JSON ? new StreamJsonRenderer(json, cost, report) : null;
        Ending ending;
        try (RunLimits limits = new RunLimits(headless.maxWallTime(), headless.maxToolCalls(), cancel, wallTimer)) {
            AgentEventSink events = event -> {
                // First, so that the spending limit the loop asks next has this request's cost.
                cost.accept(event);
                human.accept(event);
                report.accept(event);
                limits.accept(event);
                if (event instanceof AgentEvent.LoopDetected loop) {
                    loopMessage = loop.message();
                }
                if (stream != null) {
                    stream.accept(event);
                }
            };
            ending = converse(sessionId, asked, events, stream, limits, cost);
        }
        human.finish();
        if (ending.failure() != null) {
            err.println("dockhand: " + ending.failure().message());
            err.flush();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        var result = report.result(this.sessionId, ending.answer(), millis, ending.exitCode(), ending.failure());
        if (machine) {
            if (stream != null) {
                stream.line(result);
            } else {
                StreamJsonRenderer.print(json, result);
            }
        }
        if (headless.summaryFile().isPresent()) {
            Path summary = environment
                    .workingDirectory()
                    .resolve(headless.summaryFile().get());
            try {
                RunSummary.write(summary, result);
            } catch (java.io.IOException | RuntimeException e) {
                err.println("dockhand: the summary could not be written to " + summary + " (" + e.getMessage() + ").");
                err.flush();
            }
        }
        return ending.exitCode();
    }

    private Ending converse(
            String id,
            HeadlessPrompt asked,
            AgentEventSink events,
            StreamJsonRenderer stream,
            RunLimits limits,
            CostMeter cost) {
        NonInteractiveApprover approver = new NonInteractiveApprover(err);
        sessionId = id;
        try (AgentSession session = AgentSession.open(options, environment, id, approver, events, err)) {
            open = session;
            if (options.resume().isPresent()) {
                report(session.resume(id), err);
            } else {
                session.startNew(id);
            }
            if (stream != null) {
                stream.line(init(session));
            }
            options.maxCost().ifPresent(limit -> session.loop()
                    .setBudget(() -> cost.total().orElse(0) > limit));
            TurnResult result = asked.run(session, options, err, cancel);
            Ending ending = ending(result, approver, limits, cost);
            return asked.unfinished(result)
                    .filter(failure -> ending.failure() == null)
                    .map(failure -> new Ending(ExitCodes.PROVIDER_FAILURE, result.answer(), failure))
                    .orElse(ending);
        } catch (ProviderException e) {
            boolean authentication = e.kind() == ProviderException.Kind.AUTHENTICATION;
            return new Ending(
                    authentication ? ExitCodes.AUTHENTICATION : ExitCodes.PROVIDER_FAILURE,
                    "",
                    new RunReport.RunFailure("provider_" + e.kind().name().toLowerCase(Locale.ROOT), e.getMessage()));
        } catch (SandboxUnavailableException e) {
            return new Ending(
                    ExitCodes.SANDBOX_UNAVAILABLE, "", new RunReport.RunFailure("sandbox_unavailable", e.getMessage()));
        }
    }

    private com.fasterxml.jackson.databind.node.ObjectNode init(AgentSession session) {
        var init = Json.object()
                .put("type", "init")
                .put("session_id", sessionId)
                .put("provider", options.model().provider().cliName())
                .put("model", options.model().model())
                .put("cwd", session.workspace().root().toString())
                .put("sandbox", session.sandbox().kind());
        session.registry().names().forEach(init.putArray("tools")::add);
        return init;
    }

    private Ending ending(TurnResult result, NonInteractiveApprover approver, RunLimits limits, CostMeter cost) {
        return switch (result.outcome()) {
            case ANSWERED -> approver.refused() == 0
                    ? new Ending(ExitCodes.OK, result.answer(), null)
                    : new Ending(ExitCodes.APPROVAL_REQUIRED, result.answer(), approvalRequired(approver, ""));
            case EMPTY_REPLY -> approver.refused() == 0
                    ? new Ending(ExitCodes.PROVIDER_FAILURE, "", new RunReport.RunFailure("empty_reply", EMPTY_REPLY))
                    : new Ending(
                            ExitCodes.APPROVAL_REQUIRED,
                            "",
                            approvalRequired(approver, "the model gave no answer (its last reply was empty); "));
            case TURN_LIMIT -> new Ending(
                    ExitCodes.TURN_LIMIT,
                    "",
                    new RunReport.RunFailure(
                            "turn_limit",
                            "stopped after " + result.requests() + " model requests (--max-turns " + options.maxTurns()
                                    + ") while the model still wanted tools; raise --max-turns or narrow the task."));
            case PROMPT_BLOCKED -> new Ending(
                    ExitCodes.PROMPT_BLOCKED,
                    "",
                    new RunReport.RunFailure(
                            "prompt_blocked",
                            "a UserPromptSubmit hook blocked the prompt, so nothing was sent; the warning before this says"
                                    + " why."));
            case LOOP_DETECTED -> new Ending(
                    ExitCodes.LOOP_DETECTED, "", new RunReport.RunFailure("loop_detected", loopMessage));
            case BUDGET_SPENT -> new Ending(
                    ExitCodes.COST_LIMIT,
                    "",
                    new RunReport.RunFailure(
                            "cost_limit",
                            "stopped after " + result.requests() + " model requests: the run has cost "
                                    + Pricing.dollars(cost.total().orElse(0)) + ", past the --max-cost of "
                                    + Pricing.dollars(options.maxCost().orElse(0)) + "."));
            case CANCELLED -> limits.reached()
                    .map(limit -> new Ending(
                            limit.kind().equals("wall_time_limit")
                                    ? ExitCodes.WALL_TIME_LIMIT
                                    : ExitCodes.TOOL_CALL_LIMIT,
                            "",
                            limit))
                    .orElse(new Ending(
                            ExitCodes.INTERRUPTED, "", new RunReport.RunFailure("interrupted", "cancelled.")));
        };
    }

    /** The failure of a run in which calls were refused for want of approval, after {@code lead}. */
    private static RunReport.RunFailure approvalRequired(NonInteractiveApprover approver, String lead) {
        return new RunReport.RunFailure("approval_required", lead + approver.advice());
    }

    /** Says what resuming a session had to repair or skip. */
    private static void report(Sessions.Loaded loaded, PrintWriter err) {
        AgentSession.resumeNotes(loaded).forEach(note -> err.println("dockhand: " + note));
        err.flush();
    }
}
