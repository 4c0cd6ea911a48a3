package dev.dockhand.cli;

import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentLoop;
import dev.dockhand.core.agent.SystemPrompt;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.conversation.Conversation;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.sandbox.Sandbox;
import dev.dockhand.core.scheduler.CoreToolScheduler;
import dev.dockhand.core.tool.ToolEnvironment;
import dev.dockhand.core.tool.ToolRegistry;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.sandbox.SandboxUnavailableException;
import dev.dockhand.tools.BuiltinTools;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;

/**
 * One prompt, answered, then exit: {@code dockhand -p}. Nobody can approve, so calls that would ask are refused;
 * Ctrl-C cancels the turn (running commands are killed) and the run exits 130.
 */
final class SingleShot {
    private final RunOptions options;
    private final CliEnvironment environment;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Cancellation cancel = new Cancellation();

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

    int run() {
        Path outputDir = environment.home().resolve("tmp").resolve(sessionId());
        Workspace workspace =
                new Workspace(environment.workingDirectory(), options.includeDirectories(), List.of(outputDir));
        SingleShotRenderer renderer = new SingleShotRenderer(out, err);
        ToolRegistry registry = new ToolRegistry(BuiltinTools.all());
        try (Sandbox sandbox = Sandboxes.open(options, workspace, environment, err)) {
            CoreToolScheduler scheduler = new CoreToolScheduler(
                    registry,
                    new ToolEnvironment(workspace, sandbox, options.outputLimits(), outputDir),
                    new NonInteractiveApprover(err),
                    options.approvalMode(),
                    renderer);
            Conversation conversation =
                    new Conversation(SystemPrompt.build(workspace.root(), sandbox.kind(), LocalDate.now()));
            AgentLoop loop = new AgentLoop(
                    options.model().client(),
                    options.model().model(),
                    registry.declarations(),
                    scheduler,
                    conversation,
                    options.maxTurns(),
                    renderer);
            TurnResult result = loop.run(options.prompt(), cancel);
            renderer.finish();
            return exitCode(result);
        } catch (ProviderException e) {
            renderer.finish();
            err.println("dockhand: " + e.getMessage());
            err.flush();
            return e.kind() == ProviderException.Kind.AUTHENTICATION
                    ? ExitCodes.AUTHENTICATION
                    : ExitCodes.PROVIDER_FAILURE;
        } catch (SandboxUnavailableException e) {
            err.println("dockhand: " + e.getMessage());
            err.flush();
            return ExitCodes.SANDBOX_UNAVAILABLE;
        } finally {
            removeIfEmpty(outputDir);
        }
    }

    /** Saved outputs stay for the user to read; a session that saved none leaves no folder behind. */
    private static void removeIfEmpty(Path folder) {
        try {
            Files.deleteIfExists(folder);
        } catch (IOException notEmpty) {
            // Holds saved outputs: kept on purpose.
        }
    }

    private int exitCode(TurnResult result) {
        switch (result.outcome()) {
            case ANSWERED:
                return ExitCodes.OK;
            case TURN_LIMIT:
                err.println("dockhand: stopped after " + result.requests() + " model requests (--max-turns "
                        + options.maxTurns() + ") while the model still wanted tools; raise --max-turns or narrow"
                        + " the task.");
                err.flush();
                return ExitCodes.TURN_LIMIT;
            case CANCELLED:
                err.println("dockhand: cancelled.");
                err.flush();
                return ExitCodes.INTERRUPTED;
        }
        throw new AssertionError(result.outcome());
    }

    private static String sessionId() {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
