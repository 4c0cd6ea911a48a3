package dev.dockhand.cli.headless;

import dev.dockhand.cli.commands.BuiltinCommands;
import dev.dockhand.cli.commands.CommandTurn;
import dev.dockhand.cli.commands.CustomCommand;
import dev.dockhand.cli.commands.CustomCommands;
import dev.dockhand.cli.commands.InitCommand;
import dev.dockhand.cli.commands.SlashInvocation;
import dev.dockhand.cli.config.RunOptions;
import dev.dockhand.cli.environment.CliEnvironment;
import dev.dockhand.cli.environment.DockhandException;
import dev.dockhand.cli.environment.ExitCodes;
import dev.dockhand.cli.session.AgentSession;
import dev.dockhand.core.Cancellation;
import dev.dockhand.core.agent.TurnResult;
import dev.dockhand.core.model.ProviderException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the prompt of a {@code -p} run asks for: a custom command ({@code /review src/Main.java}), {@code /init}, or
 * plain text. A built-in command of the REPL ({@code /help}, {@code /model} …) does nothing without one and is refused
 * (exit 2) before anything starts, as is a custom command whose prompt comes out blank. An unknown {@code /name} is sent as typed, with a note on stderr: prompts may
 * begin with a slash ({@code /tmp is full, why?}).
 */
final class HeadlessPrompt {
    private final String prompt;
    private final CustomCommand command;
    private final String arguments;
    private final boolean init;
    private final Optional<String> initBefore;
    private final Path workspace;

    private HeadlessPrompt(
            String prompt,
            CustomCommand command,
            String arguments,
            boolean init,
            Optional<String> initBefore,
            Path workspace) {
        this.prompt = prompt;
        this.command = command;
        this.arguments = arguments;
        this.init = init;
        this.initBefore = initBefore;
        this.workspace = workspace;
    }

    /** Reads the prompt; what cannot run throws the one sentence and exit code the user gets. */
    static HeadlessPrompt of(String prompt, CliEnvironment environment, PrintWriter err) {
        Path workspace = environment.workingDirectory();
        Optional<SlashInvocation> called = SlashInvocation.parse(prompt);
        if (called.isEmpty()) {
            return new HeadlessPrompt(prompt, null, "", false, Optional.empty(), workspace);
        }
        SlashInvocation invocation = called.get();
        if (invocation.builtinName().equals("init")) {
            boolean force = InitCommand.force(invocation.arguments());
            Optional<String> before = InitCommand.content(workspace);
            if (before.isPresent() && !force) {
                throw new DockhandException(
                        ExitCodes.USAGE,
                        InitCommand.FILE + " exists already; run /init --force to replace it (the model reads it"
                                + " first).");
            }
            return new HeadlessPrompt(prompt, null, "", true, before, workspace);
        }
        if (BuiltinCommands.NAMES.contains(invocation.builtinName())) {
            throw new DockhandException(
                    ExitCodes.USAGE,
                    "/" + invocation.builtinName() + " is a command of the interactive session; run dockhand"
                            + " without -p to use it.");
        }
        CustomCommands commands = CustomCommands.load(workspace, environment.settingsHome(), BuiltinCommands.NAMES);
        commands.problems().forEach(problem -> err.println("dockhand: " + problem));
        Optional<CustomCommand> found = commands.find(invocation.name());
        if (found.isEmpty()) {
            err.println("dockhand: /" + invocation.name() + " is not a command (none in .dockhand/commands/ or "
                    + CustomCommands.userFolder(environment.settingsHome()) + "); the prompt was sent as typed.");
        }
        err.flush();
        Optional<String> refused = found.flatMap(command -> command.refusal(invocation.arguments()));
        if (refused.isPresent()) {
            throw new DockhandException(ExitCodes.USAGE, refused.get());
        }
        return found.map(command ->
                        new HeadlessPrompt(prompt, command, invocation.arguments(), false, Optional.empty(), workspace))
                .orElseGet(() -> new HeadlessPrompt(prompt, null, "", false, Optional.empty(), workspace));
    }

    /** Runs the turn the prompt asks for. */
    TurnResult run(AgentSession session, RunOptions options, PrintWriter err, Cancellation cancel)
            throws ProviderException {
        if (init) {
            return session.loop().run(InitCommand.prompt(initBefore.isPresent()), cancel);
        }
        if (command == null) {
            return session.loop().run(prompt, cancel);
        }
        CommandTurn turn = CommandTurn.plan(command, arguments, options.projectTrusted(), options.pricing(), session);
        turn.notes().forEach(note -> err.println("dockhand: " + note));
        err.flush();
        if (turn.model().isPresent() && options.maxCost().isPresent()) {
            String model = turn.model().get().model();
            if (options.pricing().find(model).isEmpty()) {
                throw new DockhandException(
                        ExitCodes.CONFIGURATION,
                        "/" + command.name() + " runs on " + model + ", whose price Dockhand's table does not know,"
                                + " so --max-cost cannot be kept; add it under \"pricing\" in ~/.dockhand/settings.json.");
            }
        }
        return turn.run(session, cancel);
    }

    /** For {@code /init}: the failure of a turn that ended without writing the file. */
    Optional<RunReport.RunFailure> unfinished(TurnResult result) {
        if (!init || result.outcome() != TurnResult.Outcome.ANSWERED) {
            return Optional.empty();
        }
        Optional<String> after = InitCommand.content(workspace);
        if (after.isPresent() && !after.equals(initBefore)) {
            return Optional.empty();
        }
        return Optional.of(new RunReport.RunFailure(
                "init_not_written",
                "the model ended its turn without writing " + InitCommand.FILE + "; run /init again, or try another"
                        + " model."));
    }
}
