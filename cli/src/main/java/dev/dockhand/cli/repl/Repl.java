package dev.dockhand.cli.repl;

import dev.dockhand.cli.commands.CustomCommand;
import dev.dockhand.cli.commands.CustomCommands;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.environment.Rendering;
import dev.dockhand.cli.environment.TerminalText;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.cli.session.CostMeter;
import dev.dockhand.cli.session.SessionStats;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.AgentEvent;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.model.ProviderException;
import dev.dockhand.core.redaction.LineRedactor;
import dev.dockhand.core.sandbox.ExecRequest;
import dev.dockhand.core.sandbox.ExecResult;
import dev.dockhand.sandbox.SandboxUnavailableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.jline.utils.Status;
import org.slf4j.LoggerFactory;

/**
 * The interactive session: {@code dockhand} with no {@code -p} on a terminal. Reads a message (or a slash command, or
 * a {@code !command}), runs the turn on its own thread while this one waits, and shows it with {@link TurnView}.
 * Ctrl-C cancels the running turn (the HTTP stream is closed, commands are killed) and the conversation stays valid;
 * Ctrl-C twice on an empty line, or Ctrl-D, leaves.
 */
public final class Repl {
    static final Duration EXIT_WINDOW = Duration.ofSeconds(2);
    private static final Duration SHELL_TIMEOUT = Duration.ofMinutes(10);

    private RunOptions options;
    private final CliEnvironment environment;
    private final Terminal terminal;
    private final ReplScreen screen;
    private final TurnView view;
    private final SessionStats stats;
    private final CostMeter cost;
    private final LongSupplier clock;
    private final ExecutorService turns = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dockhand-turn");
        thread.setDaemon(true);
        return thread;
    });
    private volatile Cancellation running;
    private long lastEmptyInterrupt = Long.MIN_VALUE;
    private LineReader reader;
    private AgentSession session;
    private SlashCommands commands;
    private CheckpointCommands checkpoints;
    private PermissionsCommand permissions;
    private CustomCommands custom = CustomCommands.NONE;
    private Status status;

    public Repl(RunOptions options, CliEnvironment environment, Terminal terminal, LongSupplier clock) {
        this.options = options;
        this.environment = environment;
        this.terminal = terminal;
        this.clock = clock;
        this.screen = new ReplScreen(terminal, environment.get("NO_COLOR").isPresent());
        this.view = new TurnView(screen);
        this.cost = new CostMeter(() -> options.pricing(), () -> session.model().model());
        this.stats = new SessionStats(clock, cost);
    }

    /**
     * Runs the REPL on this process's terminal, which jline opens with the programs of the PATH's absolute folders only
     * ({@link TerminalPrograms}).
     */
    public static int start(RunOptions options, CliEnvironment environment, PrintWriter err) {
        try (Terminal terminal = TerminalPrograms.open(
                environment.get("PATH").orElse(null),
                () -> TerminalBuilder.builder().system(true).name("dockhand").build())) {
            return new Repl(options, environment, terminal, System::nanoTime).run();
        } catch (IOException e) {
            throw new DockhandException(ExitCodes.USAGE, "Cannot open the terminal: " + e.getMessage() + ".");
        }
    }

    /** Holds the session until the user leaves; returns the exit code. */
    public int run() {
        // Raw from the start until the REPL ends (jline's prompt is raw too, and puts back what it found): keys typed
        // ahead, while the session opens or a turn runs, are neither echoed into the output nor turned from Enter into
        // Ctrl-J by the terminal; they wait, unseen, for the next prompt (Ctrl-C still signals).
        Attributes cooked = terminal.enterRawMode();
        try {
            return session();
        } finally {
            terminal.setAttributes(cooked);
        }
    }

    private int session() {
        terminal.handle(Terminal.Signal.INT, signal -> cancelRunning());
        options = TrustPrompt.ask(options, terminal, screen);
        custom = CustomCommands.load(
                environment.workingDirectory(), environment.settingsHome(), SlashCommands.reserved());
        reader = ReplInput.build(
                terminal, environment.home().resolve("history"), environment.workingDirectory(), custom);
        // What the session says on its own (an MCP server's failure and stderr tail) is not the screen's to clean.
        PrintWriter err = new PrintWriter(TerminalText.forMessages(terminal.writer()), true);
        ReplApprover approver = new ReplApprover(terminal, reader, screen, view, environment.workingDirectory());
        try (AgentSession opened =
                AgentSession.open(options, environment, AgentSession.newSessionId(), approver, this::onEvent, err)) {
            session = opened;
            commands = new SlashCommands(session, screen, stats, custom);
            checkpoints = new CheckpointCommands(session, screen, terminal);
            permissions = new PermissionsCommand(
                    session.scheduler(),
                    screen,
                    environment.settingsHome().resolve("settings.json"),
                    environment.workingDirectory().resolve(".dockhand/settings.json"),
                    environment.workingDirectory());
            approver.remember(permissions);
            reader.getWidgets().put(ReplInput.CYCLE_MODE_WIDGET, () -> {
                commands.cycleApprovalMode();
                refreshStatus();
                return true;
            });
            reader.getWidgets().put(ReplInput.AGENTS_WIDGET, () -> {
                reader.printAbove(new AttributedString(agentsShown(view.toggleAgents()), TurnView.DIM));
                return true;
            });
            begin();
            loop();
            return ExitCodes.OK;
        } catch (SandboxUnavailableException e) {
            throw new DockhandException(ExitCodes.SANDBOX_UNAVAILABLE, e.getMessage(), e);
        } finally {
            view.close();
            turns.shutdownNow();
            if (status != null) {
                // Hidden first: closing alone leaves the last status drawn under the shell's next prompt.
                status.hide();
                status.close();
            }
        }
    }

    private void begin() {
        if (options.resume().isPresent()) {
            String id = AgentSession.findSession(
                    session.sessions(), options.resume().get());
            commands.resume(id);
        } else {
            session.startNew(AgentSession.newSessionId());
        }
        screen.print(new AttributedStringBuilder()
                .style(AttributedStyle.BOLD)
                .append("Dockhand")
                .style(TurnView.DIM)
                .append(" · " + session.model().label() + " · sandbox "
                        + session.sandbox().kind() + " · /help for commands, Ctrl-D to quit")
                .toAttributedString());
        for (String problem : custom.problems()) {
            screen.print("⚠ " + Rendering.printable(problem), TurnView.YELLOW);
        }
        status = screen.ansi() ? Status.getStatus(terminal) : null;
        refreshStatus();
    }

    private void onEvent(AgentEvent event) {
        cost.accept(event);
        stats.accept(event);
        view.accept(event);
    }

    private void loop() {
        while (true) {
            String line;
            try {
                line = reader.readLine(prompt());
            } catch (UserInterruptException e) {
                if (!e.getPartialLine().isEmpty()) {
                    continue;
                }
                long now = clock.getAsLong();
                if (lastEmptyInterrupt != Long.MIN_VALUE && now - lastEmptyInterrupt <= EXIT_WINDOW.toNanos()) {
                    return;
                }
                lastEmptyInterrupt = now;
                screen.print("Press Ctrl-C again to quit (or Ctrl-D).", TurnView.DIM);
                continue;
            } catch (EndOfFileException e) {
                return;
            }
            lastEmptyInterrupt = Long.MIN_VALUE;
            String message = ReplInput.message(line).strip();
            if (message.isEmpty()) {
                continue;
            }
            if (!dispatch(message)) {
                return;
            }
            refreshStatus();
        }
    }

    /** Carries out one input; false to leave. */
    private boolean dispatch(String message) {
        if (message.startsWith("/")) {
            return slash(message);
        }
        if (message.startsWith("!")) {
            shell(message.substring(1).strip());
            return true;
        }
        turn(message);
        return true;
    }

    private boolean slash(String message) {
        String[] parts = message.substring(1).split("\\s+", 2);
        String argument = parts.length > 1 ? parts[1].strip() : "";
        Optional<SlashCommands.Command> command = SlashCommands.find(parts[0]);
        if (command.isEmpty()) {
            Optional<CustomCommand> mine = custom.find(parts[0]);
            if (mine.isPresent()) {
                commandTurns().custom(mine.get(), argument);
                return true;
            }
            screen.print(
                    "Unknown command /" + parts[0] + "; did you mean /" + SlashCommands.nearest(parts[0], custom)
                            + "? (/help lists them)",
                    TurnView.YELLOW);
            return true;
        }
        switch (command.get().name()) {
            case "help" -> commands.help();
            case "clear" -> commands.clear();
            case "model" -> commands.model(argument);
            case "approval-mode" -> commands.approvalMode(argument);
            case "tools" -> commands.tools();
            case "agents" -> commands.agents();
            case "mcp" -> commands.mcp();
            case "stats" -> commands.stats();
            case "thinking" -> screen.print(
                    view.toggleThinking()
                            ? "Reasoning: shown in full (/thinking folds it again)."
                            : "Reasoning: folded into one line (/thinking shows it in full).",
                    TurnView.DIM);
            case "memory" -> commands.memory(argument);
            case "compress" -> compress();
            case "ps" -> commands.ps();
            case "resume" -> commands.resume(argument);
            case "checkpoints" -> checkpoints.list();
            case "undo" -> checkpoints.undo();
            case "rewind" -> checkpoints.rewind(argument);
            case "permissions" -> permissions.run(argument);
            case "init" -> commandTurns().init(argument);
            case "quit" -> {
                return false;
            }
            default -> throw new IllegalStateException(
                    "no handler for /" + command.get().name());
        }
        return true;
    }

    /** Custom commands and /init, run on the turn thread like any prompt. */
    private ReplCommandTurns commandTurns() {
        return new ReplCommandTurns(
                session,
                screen,
                terminal,
                options.projectTrusted(),
                options.pricing(),
                work -> cancellable(work::run),
                this::ended);
    }

    private void turn(String typed) {
        Attachments.Expanded expanded = Attachments.expand(
                typed, session.workspace(), session.scheduler().redactor());
        for (String note : expanded.notes()) {
            screen.print(new AttributedString("  " + note, TurnView.DIM));
        }
        Optional<TurnResult> result = cancellable(cancel -> session.loop().run(expanded.message(), cancel));
        result.ifPresent(this::ended);
    }

    private void ended(TurnResult result) {
        switch (result.outcome()) {
                // A blocked prompt's reason was shown as the hook's warning.
            case ANSWERED, LOOP_DETECTED, BUDGET_SPENT, PROMPT_BLOCKED -> {}
            case EMPTY_REPLY -> screen.print(
                    "⚠ the model's reply was empty (no text and no tool call); ask again, or try another model.",
                    TurnView.YELLOW);
            case CANCELLED -> screen.print(
                    "⊘ cancelled; the conversation is kept up to here, so you can carry on.", TurnView.YELLOW);
            case TURN_LIMIT -> screen.print(
                    "⚠ stopped after " + result.requests() + " model requests (--max-turns " + options.maxTurns()
                            + ") while the model still wanted tools; say \"go on\" to continue.",
                    TurnView.YELLOW);
        }
    }

    private void compress() {
        Optional<Optional<AgentEvent.Compressed>> done =
                cancellable(cancel -> session.loop().compress(cancel));
        if (done.isPresent() && done.get().isEmpty()) {
            screen.print("Nothing to compress yet: the conversation is only its last turns.", TurnView.DIM);
        }
    }

    /** What {@link #cancellable} runs: a piece of work that may call the model. */
    @FunctionalInterface
    private interface Work<T> {
        T run(Cancellation cancel) throws ProviderException;
    }

    /**
     * Runs {@code work} on the turn thread, Ctrl-C cancelling it, with the spinner going; empty when it failed, after
     * saying why.
     */
    private <T> Optional<T> cancellable(Work<T> work) {
        Cancellation cancel = new Cancellation();
        running = cancel;
        view.start();
        TurnKeys keys = TurnKeys.watch(terminal, view::toggleAgents);
        try {
            Callable<T> task = () -> work.run(cancel);
            return Optional.of(turns.submit(task).get());
        } catch (ExecutionException e) {
            view.stop();
            Throwable cause = e.getCause();
            String reason = cause instanceof ProviderException
                    ? cause.getMessage()
                    : "internal error: " + cause + " (the log under ~/.dockhand/logs has the details); calls left"
                            + " unanswered are answered as interrupted, so you can carry on";
            if (!(cause instanceof ProviderException)) {
                LoggerFactory.getLogger(Repl.class).error("turn failed", cause);
            }
            screen.print("✗ " + reason, TurnView.RED);
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel.cancel();
            return Optional.empty();
        } finally {
            keys.close();
            running = null;
            view.stop();
        }
    }

    /** What Ctrl-O at the prompt says it changed. */
    static String agentsShown(boolean expanded) {
        return expanded
                ? "Sub-agents: each tool call they make is shown (Ctrl-O folds them to one line)."
                : "Sub-agents: one line each, with the tool they run now (Ctrl-O shows each call).";
    }

    private void shell(String command) {
        if (command.isEmpty()) {
            screen.print("Type a command after the !, like !git status.", TurnView.DIM);
            return;
        }
        screen.print(new AttributedString("$ " + command, AttributedStyle.BOLD));
        Cancellation cancel = new Cancellation();
        running = cancel;
        try {
            // Redacted as a tool's output is, so the user sees of a command what the model would.
            LineRedactor lines = session.scheduler()
                    .redactor()
                    .lines(line -> screen.print(new AttributedString(Rendering.printable(line))));
            ExecResult result = session.sandbox()
                    .exec(new ExecRequest(command, session.workspace().root(), SHELL_TIMEOUT), lines, cancel);
            lines.finish();
            screen.print(
                    switch (result.termination()) {
                        case EXITED -> "exit " + result.exitCode();
                        case TIMED_OUT -> "timed out after " + Rendering.duration(SHELL_TIMEOUT);
                        case CANCELLED -> "cancelled";
                        case OUT_OF_MEMORY -> "killed: out of memory";
                    },
                    result.exitCode() == 0 ? TurnView.DIM : TurnView.RED);
            result.notice().ifPresent(notice -> screen.print(notice, TurnView.YELLOW));
        } catch (IOException e) {
            screen.print("✗ the command could not run: " + e.getMessage(), TurnView.RED);
        } finally {
            running = null;
        }
    }

    private void cancelRunning() {
        Cancellation cancel = running;
        if (cancel != null) {
            cancel.cancel();
        }
    }

    private String prompt() {
        AttributedString prompt = new AttributedString("› ", AttributedStyle.BOLD.foreground(AttributedStyle.CYAN));
        return screen.color() ? prompt.toAnsi(terminal) : prompt.toString();
    }

    /** Model, approval mode, sandbox and context used, under the input. */
    private void refreshStatus() {
        if (status == null) {
            return;
        }
        String context = stats.contextPercent();
        String text = session.model().label() + " · "
                + session.scheduler().approvalMode().cliName()
                + " (Shift-Tab) · sandbox " + session.sandbox().kind()
                + (context.isEmpty() ? "" : " · context " + context);
        status.update(List.of(new AttributedString(text, TurnView.DIM)));
    }
}
