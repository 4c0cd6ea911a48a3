package dev.dockhand.cli;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.Json;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.AgentEventSink;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.ContextFiles;
import dev.dockhand.core.agent.SystemPrompt;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.session.Sessions;
import dev.dockhand.core.session.Transcript;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.SandboxUnavailableException;
import dev.dockhand.tools.BuiltinTools;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * One prompt, answered, then exit: {@code dockhand -p}. Nobody can approve, so calls that would ask are refused
 * (and the run exits 54); Ctrl-C cancels the turn (running commands are killed) and the run exits 130. With
 * {@code --output-format json} or {@code stream-json}, stdout carries only JSON; people read stderr.
 */
final class SingleShot {
    private final RunOptions options;
    private final CliEnvironment environment;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Cancellation cancel = new Cancellation();
    private volatile String loopMessage = "";
    private volatile Transcript transcript;

    SingleShot(RunOptions options, CliEnvironment environment, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.environment = environment;
        this.out = out;
        this.err = err;
    }

    /** The cancellation of this run's turn, for the SIGINT handler and for tests. */
    Cancellation cancellation() {
        return cancel;
    }

    /** Makes Ctrl-C cancel the turn; a second Ctrl-C, if the first did not end it, exits at once. */
    void cancelOnSigint() {
        Interrupts.onSigint(() -> {
            if (cancel.isCancelled()) {
                Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
            }
            cancel.cancel();
        });
    }

    /** How the run ended: its exit code, the answer, and the failure if there was one. */
    private record Ending(int exitCode, String answer, RunReport.RunFailure failure) {}

    int run() {
        long started = System.nanoTime();
        Sessions sessions = new Sessions(environment.home(), environment.workingDirectory());
        String sessionId = options.resume()
                .map(wanted -> sessions.find(wanted)
                        .orElseThrow(() -> new DockhandException(
                                ExitCodes.USAGE,
                                wanted.equals("latest")
                                        ? "There is no session in this folder to resume yet."
                                        : "There is no session " + wanted + " in this folder; list them with dockhand"
                                                + " sessions.")))
                .orElseGet(SingleShot::sessionId);
        Path outputDir = environment.home().resolve("tmp").resolve(sessionId);
        Headless headless = options.headless();
        boolean machine = headless.format() != Headless.Format.TEXT;
        SingleShotRenderer human = new SingleShotRenderer(machine ? new PrintWriter(Writer.nullWriter()) : out, err);
        StreamJsonRenderer stream =
                headless.format() == Headless.Format.STREAM_JSON ? new StreamJsonRenderer(out) : null;
        RunReport report = new RunReport();
        Ending ending;
        try (RunLimits limits = new RunLimits(headless.maxWallTime(), headless.maxToolCalls(), cancel)) {
            AgentEventSink events = event -> {
                human.accept(event);
                report.accept(event);
                limits.accept(event);
                if (event instanceof AgentEvent.LoopDetected loop) {
                    loopMessage = loop.message();
                }
                Transcript transcript = this.transcript;
                if (transcript != null && event instanceof AgentEvent.Usage usage) {
                    transcript.recordUsage(usage.usage());
                } else if (transcript != null && event instanceof AgentEvent.ReplyFailed failed) {
                    transcript.recordError(failed.error(), failed.partialText());
                }
                if (stream != null) {
                    stream.accept(event);
                }
            };
            ending = converse(sessions, sessionId, outputDir, events, stream, limits);
        } finally {
            removeIfEmpty(outputDir);
            if (transcript != null) {
                transcript.close();
            }
        }
        human.finish();
        if (ending.failure() != null) {
            err.println("dockhand: " + ending.failure().message());
            err.flush();
        }
        if (machine) {
            long millis = (System.nanoTime() - started) / 1_000_000;
            var result = report.result(sessionId, ending.answer(), millis, ending.exitCode(), ending.failure());
            if (stream != null) {
                stream.line(result);
            } else {
                out.println(Json.write(result));
                out.flush();
            }
        }
        return ending.exitCode();
    }

    private Ending converse(
            Sessions sessions,
            String sessionId,
            Path outputDir,
            AgentEventSink events,
            StreamJsonRenderer stream,
            RunLimits limits) {
        Workspace workspace =
                new Workspace(environment.workingDirectory(), options.includeDirectories(), List.of(outputDir));
        ToolRegistry registry = new ToolRegistry(options.headless().select(BuiltinTools.all()));
        NonInteractiveApprover approver = new NonInteractiveApprover(err);
        try (Sandbox sandbox = Sandboxes.open(options, workspace, environment, err)) {
            if (stream != null) {
                var init = Json.object()
                        .put("type", "init")
                        .put("session_id", sessionId)
                        .put("provider", options.model().provider().cliName())
                        .put("model", options.model().model())
                        .put("cwd", workspace.root().toString())
                        .put("sandbox", sandbox.kind());
                registry.names().forEach(init.putArray("tools")::add);
                stream.line(init);
            }
            CoreToolScheduler scheduler = new CoreToolScheduler(
                    registry,
                    new ToolEnvironment(workspace, sandbox, options.outputLimits(), outputDir),
                    approver,
                    options.approvalMode(),
                    events);
            ContextFiles.Context context =
                    ContextFiles.load(workspace.root(), environment.home(), ContextFiles.DEFAULT_BUDGET_CHARS);
            if (context.cut()) {
                err.println("dockhand: the AGENTS.md files exceed " + ContextFiles.DEFAULT_BUDGET_CHARS
                        + " characters; the rest was left out of the model's instructions.");
                err.flush();
            }
            Conversation conversation =
                    new Conversation(SystemPrompt.build(workspace.root(), sandbox.kind(), LocalDate.now(), context));
            transcript = Transcript.open(
                    sessions.file(sessionId),
                    sessionId,
                    workspace.root(),
                    options.model().model());
            if (options.resume().isPresent()) {
                resume(sessions.file(sessionId), conversation);
            } else {
                conversation.observe(transcript::record);
            }
            AgentLoop loop = new AgentLoop(
                    options.model().client(),
                    options.model().model(),
                    registry.declarations(),
                    scheduler,
                    conversation,
                    options.maxTurns(),
                    events);
            TurnResult result = loop.run(options.prompt(), cancel);
            return ending(result, approver, limits);
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

    private Ending ending(TurnResult result, NonInteractiveApprover approver, RunLimits limits) {
        return switch (result.outcome()) {
            case ANSWERED -> approver.refused() == 0
                    ? new Ending(ExitCodes.OK, result.answer(), null)
                    : new Ending(
                            ExitCodes.APPROVAL_REQUIRED,
                            result.answer(),
                            new RunReport.RunFailure(
                                    "approval_required",
                                    approver.refused() + (approver.refused() == 1 ? " tool call" : " tool" + " calls")
                                            + " needed approval and nobody could give it; rerun with --yolo (or"
                                            + " --approval-mode auto-edit for edits) to allow such calls."));
            case TURN_LIMIT -> new Ending(
                    ExitCodes.TURN_LIMIT,
                    "",
                    new RunReport.RunFailure(
                            "turn_limit",
                            "stopped after " + result.requests() + " model requests (--max-turns " + options.maxTurns()
                                    + ") while the model still wanted tools; raise --max-turns or narrow the task."));
            case LOOP_DETECTED -> new Ending(
                    ExitCodes.LOOP_DETECTED, "", new RunReport.RunFailure("loop_detected", loopMessage));
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

    /** Continues a session's conversation, saying what a crash had left to repair. */
    private void resume(Path file, Conversation conversation) {
        Sessions.Loaded loaded = Sessions.resume(file, conversation, transcript);
        if (loaded.cutLastLine()) {
            err.println("dockhand: the session's last line was cut short (Dockhand was stopped while writing it)"
                    + " and was skipped.");
        }
        if (!loaded.repaired().isEmpty()) {
            err.println("dockhand: " + loaded.repaired().size() + " tool call(s) left unfinished by a crash were"
                    + " answered as interrupted.");
        }
        err.flush();
    }

    /** Saved outputs stay for the user to read; a session that saved none leaves no folder behind. */
    private static void removeIfEmpty(Path folder) {
        try {
            Files.deleteIfExists(folder);
        } catch (IOException notEmpty) {
            // Holds saved outputs: kept on purpose.
        }
    }

    private static String sessionId() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
